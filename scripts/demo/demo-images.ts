import sharp from "sharp";

/** Small pictures made on the spot, so the demo needs no binary files in the repository. */

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** A 640×360 banner: a two-colour gradient, a few shapes and the title. */
export async function bannerPng(title: string, from: string, to: string): Promise<Buffer> {
  // Long titles get a smaller font, so the line stays inside its band.
  const size = Math.min(30, Math.floor(1000 / title.length));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
  </linearGradient></defs>
  <rect width="640" height="360" fill="url(#g)"/>
  <circle cx="540" cy="80" r="120" fill="#ffffff" fill-opacity="0.12"/>
  <circle cx="90" cy="320" r="90" fill="#ffffff" fill-opacity="0.10"/>
  <rect x="40" y="236" width="560" height="84" rx="12" fill="#000000" fill-opacity="0.35"/>
  <text x="60" y="290" font-family="sans-serif" font-size="${size}" font-weight="bold" fill="#ffffff">${escape(title)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A 2x2 ID photo (300×300): a plain background and a head-and-shoulders silhouette. */
export async function portraitJpeg(background: string, shirt: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300">
  <rect width="300" height="300" fill="${background}"/>
  <ellipse cx="150" cy="300" rx="120" ry="90" fill="${shirt}"/>
  <rect x="132" y="170" width="36" height="50" fill="#c68e63"/>
  <ellipse cx="150" cy="130" rx="55" ry="68" fill="#d9a57a"/>
  <path d="M95 120 Q150 40 205 120 Q200 75 150 62 Q100 75 95 120 Z" fill="#2b1d14"/>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** A phone screenshot of an e-wallet receipt (payment proofs). */
export async function receiptPng(reference: string, amount: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="420">
  <rect width="240" height="420" fill="#f4f6fb"/>
  <rect width="240" height="70" fill="#0a5bd8"/>
  <text x="20" y="45" font-family="sans-serif" font-size="22" fill="#ffffff">Sent via e-wallet</text>
  <text x="20" y="140" font-family="sans-serif" font-size="16" fill="#333333">Amount</text>
  <text x="20" y="175" font-family="sans-serif" font-size="30" font-weight="bold" fill="#111111">PHP ${amount.toFixed(2)}</text>
  <text x="20" y="230" font-family="sans-serif" font-size="14" fill="#333333">Ref. No. ${escape(reference)}</text>
  <rect x="20" y="300" width="200" height="2" fill="#cccccc"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A scanned clearance certificate: a page with a header band and lines of "text". */
export async function clearancePng(title: string): Promise<Buffer> {
  const lines = Array.from(
    { length: 9 },
    (_, i) =>
      `<rect x="40" y="${150 + i * 28}" width="${i % 3 === 2 ? 260 : 420}" height="8" fill="#999999"/>`,
  ).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="500" height="650">
  <rect width="500" height="650" fill="#fffdf5"/>
  <rect x="0" y="0" width="500" height="90" fill="#1d3a6e"/>
  <text x="40" y="58" font-family="serif" font-size="26" fill="#ffffff">${escape(title)}</text>
  ${lines}
  <circle cx="400" cy="560" r="45" fill="none" stroke="#b22222" stroke-width="4"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
