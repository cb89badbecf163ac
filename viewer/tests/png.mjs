// A small PNG reader (8-bit RGB or RGBA, not interlaced: what Chromium's screenshots are),
// so that the end-to-end test checks the pixels of the screenshots it saves.
import { inflateSync } from 'node:zlib';

export function readPng(buf) {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let off = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data[8];
      const colour = data[9];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || data[12] !== 0)
        throw new Error(`PNG of depth ${depth}, colour type ${colour}, interlace ${data[12]}: not read here`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = Buffer.alloc(height * stride);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; ++x) {
      const a = x >= channels ? px[y * stride + x - channels] : 0;
      const b = y > 0 ? px[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? px[(y - 1) * stride + x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      px[y * stride + x] = v & 255;
    }
  }
  return { width, height, channels, px };
}

// How much of an image differs from its most common colour, and how many colours it has:
// a blank (one-colour) canvas gives 0 and 1.
export function pixelStats(img) {
  const counts = new Map();
  const n = img.width * img.height;
  for (let i = 0; i < n; ++i) {
    const o = i * img.channels;
    const key = (img.px[o] << 16) | (img.px[o + 1] << 8) | img.px[o + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let top = 0;
  for (const c of counts.values()) top = Math.max(top, c);
  return { nonBackground: (n - top) / n, colours: counts.size };
}

// The colour at (x, y) as [r, g, b].
export function pixel(img, x, y) {
  const o = (Math.round(y) * img.width + Math.round(x)) * img.channels;
  return [img.px[o], img.px[o + 1], img.px[o + 2]];
}
