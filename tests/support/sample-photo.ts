import { PNG } from "pngjs";

/**
 * A 2x2-photo stand-in: a portrait-shaped PNG (a face-coloured disc on blue), not square, so a
 * render that crops or stretches it shows.
 */
export function samplePhotoPng(width = 360, height = 420): Buffer {
  const png = new PNG({ width, height });
  const cx = width / 2;
  const cy = height * 0.42;
  const radius = Math.min(width, height) * 0.3;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 4;
      const face = (x - cx) ** 2 + (y - cy) ** 2 < radius ** 2;
      const shoulders = y > height * 0.78 && Math.abs(x - cx) < width * 0.4;
      const [r, g, b] = face ? [224, 172, 140] : shoulders ? [40, 40, 60] : [70, 130, 200];
      png.data[at] = r;
      png.data[at + 1] = g;
      png.data[at + 2] = b;
      png.data[at + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}
