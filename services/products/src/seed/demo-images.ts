import { PNG } from 'pngjs';

type Rgb = readonly [number, number, number];
type Point = readonly [number, number];

export type DemoShape = 'pistol' | 'holster' | 'optic' | 'magazine' | 'kit' | 'light';

const WIDTH = 640;
const HEIGHT = 480;

/** A tiny raster canvas: enough to draw flat demo product pictures without downloading anything. */
class Raster {
  readonly png = new PNG({ width: WIDTH, height: HEIGHT });

  pixel(x: number, y: number, [r, g, b]: Rgb): void {
    if (x < 0 || y < 0 || x >= WIDTH || y >= HEIGHT) return;
    const i = (y * WIDTH + x) * 4;
    this.png.data[i] = r;
    this.png.data[i + 1] = g;
    this.png.data[i + 2] = b;
    this.png.data[i + 3] = 255;
  }

  gradient(top: Rgb, bottom: Rgb): void {
    for (let y = 0; y < HEIGHT; y++) {
      const t = y / (HEIGHT - 1);
      const colour: Rgb = [0, 1, 2].map((c) =>
        Math.round(top[c]! + (bottom[c]! - top[c]!) * t),
      ) as unknown as Rgb;
      for (let x = 0; x < WIDTH; x++) this.pixel(x, y, colour);
    }
  }

  rect(x: number, y: number, w: number, h: number, colour: Rgb): void {
    for (let j = Math.max(0, y); j < Math.min(HEIGHT, y + h); j++) {
      for (let i = Math.max(0, x); i < Math.min(WIDTH, x + w); i++) this.pixel(i, j, colour);
    }
  }

  circle(cx: number, cy: number, radius: number, colour: Rgb): void {
    for (let y = cy - radius; y <= cy + radius; y++) {
      for (let x = cx - radius; x <= cx + radius; x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2) this.pixel(x, y, colour);
      }
    }
  }

  /** Even-odd scanline fill. */
  polygon(points: Point[], colour: Rgb): void {
    const ys = points.map(([, y]) => y);
    for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y++) {
      const crossings: number[] = [];
      points.forEach(([x1, y1], i) => {
        const [x2, y2] = points[(i + 1) % points.length]!;
        if (y1 === y2 || y < Math.min(y1, y2) || y >= Math.max(y1, y2)) return;
        crossings.push(x1 + ((y - y1) * (x2 - x1)) / (y2 - y1));
      });
      crossings.sort((a, b) => a - b);
      for (let k = 0; k + 1 < crossings.length; k += 2) {
        for (let x = Math.ceil(crossings[k]!); x <= Math.floor(crossings[k + 1]!); x++)
          this.pixel(x, y, colour);
      }
    }
  }
}

const DARK: Rgb = [32, 34, 38];
const STEEL: Rgb = [92, 98, 108];
const LIGHT: Rgb = [210, 214, 220];

function draw(raster: Raster, shape: DemoShape, accent: Rgb): void {
  switch (shape) {
    case 'pistol':
      raster.rect(150, 150, 360, 70, STEEL); // slide
      raster.rect(160, 160, 340, 8, LIGHT);
      raster.polygon(
        [
          [170, 220],
          [500, 220],
          [480, 260],
          [300, 260],
          [270, 380],
          [190, 380],
          [215, 260],
          [170, 260],
        ],
        DARK,
      );
      raster.rect(300, 262, 50, 10, accent); // trigger guard hint
      raster.circle(330, 290, 22, DARK);
      break;
    case 'holster':
      raster.polygon(
        [
          [220, 110],
          [420, 110],
          [440, 200],
          [400, 380],
          [260, 380],
          [200, 200],
        ],
        DARK,
      );
      raster.rect(250, 130, 140, 20, accent);
      raster.circle(320, 300, 18, STEEL);
      break;
    case 'optic':
      raster.rect(180, 200, 280, 110, DARK);
      raster.circle(320, 200, 90, DARK);
      raster.circle(320, 200, 60, accent);
      raster.circle(320, 200, 8, [220, 40, 40]);
      raster.rect(200, 310, 240, 25, STEEL);
      break;
    case 'magazine':
      raster.polygon(
        [
          [260, 90],
          [370, 90],
          [400, 390],
          [290, 390],
        ],
        DARK,
      );
      raster.rect(275, 100, 80, 18, LIGHT);
      raster.rect(285, 360, 110, 30, accent);
      break;
    case 'kit':
      raster.rect(150, 170, 340, 180, DARK);
      raster.rect(150, 170, 340, 30, accent);
      raster.rect(190, 230, 200, 14, STEEL);
      raster.rect(190, 270, 260, 14, STEEL);
      raster.circle(420, 237, 16, LIGHT);
      break;
    case 'light':
      raster.rect(200, 200, 220, 80, DARK);
      raster.circle(440, 240, 60, STEEL);
      raster.circle(440, 240, 42, [250, 238, 170]);
      raster.rect(230, 180, 120, 20, accent);
      break;
  }
}

/** Draws a demo product picture; `variant` changes the backdrop so a product's several images differ. */
export function renderDemoImage(shape: DemoShape, accent: Rgb, variant: number): Buffer {
  const raster = new Raster();
  const backdrops: [Rgb, Rgb][] = [
    [
      [236, 238, 241],
      [196, 201, 209],
    ],
    [
      [58, 63, 72],
      [24, 26, 30],
    ],
    [
      [244, 236, 222],
      [206, 192, 170],
    ],
  ];
  const [top, bottom] = backdrops[variant % backdrops.length]!;
  raster.gradient(top, bottom);
  draw(raster, shape, accent);
  return PNG.sync.write(raster.png);
}
