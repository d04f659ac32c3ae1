import jsQR from 'jsqr';

/**
 * Decodes a QR code SVG as qrcode-svg draws it (square modules as `M x,y V y2 H x2 V y H x Z` path
 * segments or `<rect>`s): rasterizes the dark modules into an RGBA bitmap and runs the jsQR decoder.
 */
export function decodeQrSvg(svg: string, scale = 4): string | undefined {
  const viewBox = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg) ?? /width="([\d.]+)" height="([\d.]+)"/.exec(svg);
  if (!viewBox) throw new Error('SVG has no size');
  const width = Math.ceil(Number(viewBox[1]) * scale);
  const height = Math.ceil(Number(viewBox[2]) * scale);
  const pixels = new Uint8ClampedArray(width * height * 4).fill(255);
  const fill = (x1: number, y1: number, x2: number, y2: number) => {
    for (let y = Math.round(y1 * scale); y < Math.round(y2 * scale); y++) {
      for (let x = Math.round(x1 * scale); x < Math.round(x2 * scale); x++) {
        const i = (y * width + x) * 4;
        pixels[i] = pixels[i + 1] = pixels[i + 2] = 0;
      }
    }
  };
  for (const m of svg.matchAll(/M([\d.]+),([\d.]+) V([\d.]+) H([\d.]+) V[\d.]+ H[\d.]+ Z/g)) {
    fill(Number(m[1]), Number(m[2]), Number(m[4]), Number(m[3]));
  }
  for (const m of svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" style="fill:#000000/g)) {
    fill(Number(m[1]), Number(m[2]), Number(m[1]) + Number(m[3]), Number(m[2]) + Number(m[4]));
  }
  return jsQR(pixels, width, height)?.data;
}
