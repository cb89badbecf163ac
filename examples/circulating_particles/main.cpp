// kds_example_circulating_particles: the example of Kim, Guibas and Shin's section 4.3.
// 1000 particles (radii 1 to 10, acceleration bound 30) circulate in a 200^3 box, driven
// by a velocity field kds does not know: up the central axis, out under the lid, down the
// side walls, in across the floor. kds sees only the acceleration bound, and probes.
//
//   kds_example_circulating_particles                          # 1000 particles, 2.8 simulated seconds
//   kds_example_circulating_particles --frames frames.csv      # positions every 0.7 s, for a replay
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "examples/common/command_line.hpp"
#include "examples/paper_experiment/paper_scene.hpp"
#include "examples/paper_experiment/sphere_report.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/trajectories/velocity_field_probe.hpp"

namespace {

struct Options {
  std::size_t n = 1000;
  double seconds = 2.8;  ///< four frames; the paper's Figure 8 runs 7 (--seconds 7)
  std::uint64_t seed = 1;
  std::string frames;
  double frame_interval = 0.7;
};

Options parse(int argc, char** argv) {
  using namespace kds::programs;
  Options o;
  CommandLine line("kds_example_circulating_particles",
                   "Particles circulating in a 200^3 box under a velocity field (Kim, Guibas, Shin, section 4.3).");
  line.add_option("--n", o.n, "particles")->check(integer_in(1, 2000))->capture_default_str();
  line.add_option("--seconds", o.seconds, "simulated seconds (the paper's Figure 8 shows 7)")
      ->check(positive())
      ->capture_default_str();
  line.add_option("--seed", o.seed, "seed of the initial positions and radii")->check(integer_in(0))->capture_default_str();
  line.add_option("--frames", o.frames, "write every particle's position every 0.7 s as CSV (frame,time,id,x,y,z,radius)")
      ->type_name("FILE");
  line.parse_or_exit(argc, argv);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    // The paper's box and particles: radii uniform in [1, 10], |a| <= 30 for all.
    kds::paper::PaperScene scene;
    scene.n = o.n;
    scene.seed = o.seed;
    scene.radius_min = 1;
    scene.acceleration_min = scene.acceleration_max = 30;
    scene.speed_min = scene.speed_max = 0;
    std::vector<kds::Sphere> particles = kds::paper::paper_spheres(scene);
    const kds::CirculationField field{kds::paper::cube(scene.box_side)};
    // Start each particle at the field's velocity, so that the flow is established from t = 0.
    for (kds::Sphere& p : particles) p.velocity = kds::circulation_velocity(field, p.position);

    kds::VelocityFieldProbe probe(particles, field);
    kds::CollisionWorldSettings settings;
    settings.box = field.box;
    settings.probe = &probe;
    kds::Simulator sim;
    kds::CollisionWorld world(sim, settings, particles);

    std::printf("Circulating particles (Kim, Guibas, Shin, section 4.3)\n");
    std::printf("  %zu particles, radii 1 to 10, |a| <= 30, in a %g^3 box (volume fraction %.1f%%), seed %llu\n", o.n,
                scene.box_side, 100 * kds::paper::volume_fraction(particles, field.box),
                static_cast<unsigned long long>(o.seed));
    std::printf("  field: up the central axis at up to %g, down the sides; simulating %g s (progress on stderr)\n\n",
                field.speed, o.seconds);
    std::fflush(stdout);

    std::ofstream frames;
    if (!o.frames.empty()) {
      frames.open(o.frames);
      if (!frames) throw std::runtime_error("cannot write the frames to '" + o.frames + "'");
      frames << "frame,time,id,x,y,z,radius\n";
      frames.precision(9);
    }
    // Frames are read from the probe, the particles' true positions (the world knows only
    // their bounds' centres); asking the probe does not change the trajectories.
    auto write_frame = [&](int frame, double t) {
      if (!frames) return;
      for (kds::SphereId i = 0; i < particles.size(); ++i) {
        const kds::Vec<3> x = probe.state(i, t).position;
        frames << frame << ',' << t << ',' << i << ',' << x[0] << ',' << x[1] << ',' << x[2] << ','
               << particles[i].radius << '\n';
      }
    };

    double wall = 0, t = 0;
    int frames_written = 0;
    write_frame(frames_written++, 0);
    for (int k = 1; t < o.seconds; ++k) {
      const double next = std::min(o.seconds, k * o.frame_interval);
      wall += kds::examples::run_with_progress(sim, world, next, next - t);
      if (next == k * o.frame_interval) write_frame(frames_written++, next);
      t = next;
    }

    std::printf("\n");
    kds::examples::print_events_by_kind(sim, world);
    std::printf("\nWall time: %.3f s for %g simulated seconds = %.4f s per simulated second\n", wall, o.seconds,
                wall / o.seconds);
    if (frames) std::printf("Frames: %d written to %s (every %g s)\n", frames_written, o.frames.c_str(), o.frame_interval);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kds_example_circulating_particles: %s\n", e.what());
    return 1;
  }
}
