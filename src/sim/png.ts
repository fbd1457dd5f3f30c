import { crc32, deflateSync } from 'node:zlib';

/** The 8-byte PNG signature. */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data, CRC over type and data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A valid RGB PNG of a simple bar chart, without its IEND chunk (so a padding chunk can
 * follow). Deterministic for a seed.
 */
export function pngBody(width: number, height: number, seed: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const bars = 8;
  const heights = Array.from({ length: bars }, (_, i) => 0.2 + (((seed >>> (i * 3)) & 7) / 7) * 0.75);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const bar = Math.floor((x / width) * bars);
      const inBar = x % Math.ceil(width / bars) > 2 && 1 - y / height <= (heights[bar] ?? 0);
      const p = row + 1 + x * 3;
      raw[p] = inBar ? 40 + bar * 25 : 250;
      raw[p + 1] = inBar ? 90 : 250;
      raw[p + 2] = inBar ? 200 - bar * 15 : 250;
    }
  }
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw))]);
}

/** The closing IEND chunk. */
export const PNG_IEND = pngChunk('IEND', Buffer.alloc(0));

/** Type of the private ancillary chunk that pads a PNG to an exact size; decoders skip it. */
export const PNG_PAD_TYPE = 'prVt';
