// Generates the PWA icons in public/icons/ from public/favicon.svg (run once after changing the logo:
// `node scripts/generate-icons.mjs`). The PNGs are committed: the build only copies them.
//   icon-192.png, icon-512.png        "any": the logo as drawn, rounded corners and all
//   maskable-192.png, maskable-512.png "maskable": a full-bleed square whose logo stays inside the central 80 %
//                                      circle that Android's masks keep (https://w3c.github.io/manifest/#icon-masks)
//   apple-touch-icon.png (180)         iOS draws its own rounded corners over a full square
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const source = fs.readFileSync(path.join(root, 'public', 'favicon.svg'), 'utf8');
const outDir = path.join(root, 'public', 'icons');
fs.mkdirSync(outDir, { recursive: true });

const BRAND = '#d6336c';
// The logo's shapes without its rounded background, to place on a full square.
const shapes = [...source.matchAll(/<path [^>]+\/>/g)].map((match) => match[0]).join('');
/** The 64-unit logo scaled to `scale` of a full-bleed square, centred. */
const fullBleed = (scale) => {
  const offset = (64 - 64 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${BRAND}"/><g transform="translate(${offset} ${offset}) scale(${scale})">${shapes}</g></svg>`;
};

const render = (svg, size, name) =>
  sharp(Buffer.from(svg), { density: Math.ceil((72 * size) / 64) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(outDir, name));

await Promise.all([
  render(source, 192, 'icon-192.png'),
  render(source, 512, 'icon-512.png'),
  render(fullBleed(0.6), 192, 'maskable-192.png'),
  render(fullBleed(0.6), 512, 'maskable-512.png'),
  render(fullBleed(0.8), 180, 'apple-touch-icon.png'),
]);
console.log(`icons written to ${path.relative(root, outDir)}/`);
