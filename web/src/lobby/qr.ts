// QR codes of the lobby's links, for a friend to open their seat on a phone: an SVG drawn from
// qrcode-generator's modules and handed to an <img> as a data: URL, so that the page needs no
// inline script or style (its Content-Security-Policy allows `img-src 'self' data:`).
import qrcode from "qrcode-generator";

const MARGIN = 4; // the quiet zone the standard asks for, in modules

/** The QR code of `text` (error correction M: a link stays readable on a smudged screen) as an
 * SVG data: URL, one unit per module, dark on white whatever the page's colours. */
export function qrDataUrl(text: string): string {
  const code = qrcode(0, "M"); // 0: the smallest version that holds the text
  code.addData(text, "Byte");
  code.make();
  const count = code.getModuleCount();
  const size = count + 2 * MARGIN;
  // One path: each row's runs of dark modules as rectangles (a few hundred, not thousands).
  const runs: string[] = [];
  for (let row = 0; row < count; row += 1) {
    let col = 0;
    while (col < count) {
      if (!code.isDark(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < count && code.isDark(row, col)) col += 1;
      runs.push(`M${start + MARGIN} ${row + MARGIN}h${col - start}v1h-${col - start}z`);
    }
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${runs.join("")}"/></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
