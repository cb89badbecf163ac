#!/usr/bin/env python3
"""The extended XYZ export of `kds run`, read back by an independent reader (ASE), against
kds's own states: for every frame at time t, `kds run --until t --states` (a run that
stops only at t) must give the positions and velocities ASE reads, to the last bit.

    check_xyz_with_ase.py KDS WORKDIR
"""
import json
import os
import subprocess
import sys

import ase.io

kds, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)


def run(*args):
    done = subprocess.run([kds, *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"'kds {' '.join(args)}' exited with {done.returncode}:\n{done.stdout}{done.stderr}")
    return done.stdout


def check(kind, *generate):
    scenario = os.path.join(work, kind + ".json")
    xyz = os.path.join(work, kind + ".xyz")
    run("generate", kind, *generate, "-o", scenario)
    run("run", scenario, "--export-xyz", xyz, "--frames", "5", "--no-progress")
    spheres = json.load(open(scenario))["spheres"]
    frames = ase.io.read(xyz, index=":", format="extxyz")
    assert len(frames) == 5, f"{xyz}: {len(frames)} frames, expected 5"
    for k, atoms in enumerate(frames):
        t = float(atoms.info["Time"])
        assert len(atoms) == len(spheres), f"frame {k}: {len(atoms)} spheres, expected {len(spheres)}"
        radii = atoms.arrays["radius"]
        for i, s in enumerate(spheres):
            assert radii[i] == s["radius"], f"frame {k}, sphere {i}: radius {radii[i]} != {s['radius']}"
        if k == 0:
            assert t == 0, f"frame 0 at t = {t}"
            expected = [s["position"] for s in spheres]
            velocities = [s.get("velocity", [0, 0, 0]) for s in spheres]
        else:
            states = os.path.join(work, f"{kind}-{k}.states")
            run("run", scenario, "--until", repr(t), "--states", states, "--no-progress")
            rows = [[float(x) for x in line.split()] for line in open(states)]
            expected = [r[:3] for r in rows]
            velocities = [r[3:] for r in rows]
        for i in range(len(spheres)):
            got = list(atoms.positions[i])
            assert got == list(map(float, expected[i])), f"{kind} frame {k} (t = {t}), sphere {i}: ASE reads {got}, kds says {expected[i]}"
            vel = list(atoms.arrays["vel"][i])
            assert vel == list(map(float, velocities[i])), f"{kind} frame {k}, sphere {i}: velocity {vel} != {velocities[i]}"
    print(f"{kind}: {len(frames)} frames of {len(spheres)} spheres read by ASE {ase.__version__} match kds's states")


check("bullet-through-paper", "--side", "4")
check("paper-box", "--n", "30", "--until", "0.5", "--seed", "2")
