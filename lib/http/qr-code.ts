import QRCode from 'qrcode-svg';
import type { HttpResult } from './types.ts';

/**
 * A QR code of `content` as an inline SVG download, drawn the one way every QR code of the API is
 * (docs/decisions.md#qr-codes-with-qrcode-svg): error correction M, `size` pixels wide with a quiet
 * zone of `margin` modules, one path, a viewBox, no XML declaration. `fileName` (without `.svg`)
 * must hold only characters safe in a header.
 */
export function qrCodeResponse(content: string, size: number, margin: number, fileName: string): HttpResult {
  const svg = new QRCode({ content, ecl: 'M', padding: margin, width: size, height: size, join: true, container: 'svg-viewbox', xmlDeclaration: false }).svg();
  return { statusCode: 200, headers: { 'Content-Type': 'image/svg+xml', 'Content-Disposition': `inline; filename="${fileName}.svg"` }, body: svg };
}
