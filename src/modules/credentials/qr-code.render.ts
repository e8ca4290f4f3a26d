import QRCode from "qrcode";

/** The QR code of `url` as a PNG: large enough to print sharp on the certificate. */
export function renderQrPng(url: string): Promise<Buffer> {
  return QRCode.toBuffer(url, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 512 });
}
