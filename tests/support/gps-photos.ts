import { crc32 } from "node:zlib";
import sharp from "sharp";
import { samplePhotoPng } from "./sample-photo";

/**
 * Photos as a phone leaves them: Exif with GPS coordinates (and a recognisable datum text in
 * the GPS directory), XMP naming the place, a JPEG comment or PNG text chunks. Built here, so a
 * test can look for every trace afterwards in whatever the service stored, served or rendered.
 */
export const GPS_MARKER = "GPS-DATUM-HOME-14.5995N-120.9842E";

const EXIF = {
  IFD0: { Make: "PhonePro", Model: "PhonePro 12", Copyright: GPS_MARKER },
  IFD3: {
    GPSLatitudeRef: "N",
    GPSLatitude: "14/1 35/1 5820/100",
    GPSLongitudeRef: "E",
    GPSLongitude: "120/1 59/1 312/100",
    GPSMapDatum: GPS_MARKER,
  },
};

const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  `<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="14,35.97N" exif:GPSAreaInformation="${GPS_MARKER}"/>` +
  "</rdf:RDF></x:xmpmeta>";

/** A 2x2-like portrait as a phone's JPEG: Exif GPS, XMP, and the Exif orientation of a turned camera. */
export async function jpegWithGps(): Promise<Buffer> {
  return sharp(samplePhotoPng(420, 360))
    .jpeg({ quality: 92 })
    .withExif(EXIF)
    .withXmp(XMP)
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** The same portrait as a PNG: an eXIf chunk with GPS, XMP in iTXt, and a tEXt comment. */
export async function pngWithGps(): Promise<Buffer> {
  const png = await sharp(samplePhotoPng()).png().withExif(EXIF).toBuffer();
  return insertBeforeEnd(
    png,
    Buffer.concat([
      chunk("iTXt", Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${XMP}`, "utf8")),
      chunk("tEXt", Buffer.from(`Comment\0taken at ${GPS_MARKER}`, "latin1")),
    ]),
  );
}

/** What of a planted photo's metadata `bytes` still hold (none, once cleaned). */
export function gpsTraces(bytes: Buffer): string[] {
  const traces = {
    "the GPS marker": GPS_MARKER,
    "an Exif block": "Exif\0\0",
    "a PNG eXIf chunk": "eXIf",
    "a PNG text chunk": "tEXt",
    "a PNG international text chunk": "iTXt",
    XMP: "xmpmeta",
    "the camera's make": "PhonePro",
  };
  return Object.entries(traces)
    .filter(([, needle]) => bytes.includes(Buffer.from(needle, "latin1")))
    .map(([name]) => name);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** `extra` placed just before the PNG's IEND chunk (its last 12 bytes). */
function insertBeforeEnd(png: Buffer, extra: Buffer): Buffer {
  return Buffer.concat([png.subarray(0, png.length - 12), extra, png.subarray(png.length - 12)]);
}

/** A PNG whose header claims `width` × `height` pixels, with no pixels at all behind it. */
export function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
