import { once } from 'node:events';
import zlib from 'node:zlib';

/**
 * A decompression bomb: a valid size × size PNG, 16 bits per channel (RGB), all black. One colour deflates about
 * 1000 : 1, so 7000 × 7000 (294 MB decoded) is a file of under 300 KB. Deflated row block by row block, so the
 * test never holds the decoded image in memory.
 */
export async function pngBomb(size: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 16; // bit depth
  ihdr[9] = 2; // RGB
  const rowBytes = 1 + size * 6; // filter byte + 3 channels × 2 bytes
  const rowsPerBlock = 100;
  const block = Buffer.alloc(rowBytes * rowsPerBlock);
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  for (let row = 0; row < size; row += rowsPerBlock) {
    const rows = Math.min(rowsPerBlock, size - row);
    if (!deflate.write(rows === rowsPerBlock ? block : block.subarray(0, rowBytes * rows)))
      await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.concat(parts)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}
