import sharp from "sharp";
import { cleanImage, IMAGE_MAX_PIXELS } from "../../src/modules/files/image-cleaning";
import { gpsTraces, jpegWithGps, pngClaiming, pngWithGps } from "../support/gps-photos";

describe("cleanImage (issue 53 point 1)", () => {
  it("re-encodes a phone's JPEG without Exif, GPS or XMP, turned the way the camera was held", async () => {
    const dirty = await jpegWithGps();
    expect(gpsTraces(dirty)).toEqual(
      expect.arrayContaining(["the GPS marker", "an Exif block", "XMP"]),
    );
    expect(await sharp(dirty).metadata()).toMatchObject({
      width: 420,
      height: 360,
      orientation: 6,
    });
    const clean = await cleanImage(dirty, "image/jpeg");
    expect(gpsTraces(clean)).toEqual([]);
    const meta = await sharp(clean).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 360, height: 420 });
    expect([meta.exif, meta.xmp, meta.icc, meta.orientation]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("re-encodes a PNG without its eXIf, iTXt and tEXt chunks, pixels unchanged", async () => {
    const dirty = await pngWithGps();
    expect(gpsTraces(dirty)).toEqual(
      expect.arrayContaining([
        "the GPS marker",
        "a PNG eXIf chunk",
        "a PNG text chunk",
        "a PNG international text chunk",
        "XMP",
      ]),
    );
    const clean = await cleanImage(dirty, "image/png");
    expect(gpsTraces(clean)).toEqual([]);
    const [before, after] = await Promise.all(
      [dirty, clean].map((bytes) => sharp(bytes).raw().toBuffer()),
    );
    expect(after.equals(before)).toBe(true);
  });

  it("re-encodes a WebP without its EXIF and XMP chunks", async () => {
    const dirty = await sharp(await pngWithGps())
      .webp()
      .withExif({ IFD3: { GPSMapDatum: "WEBP-GPS-TRACE" } })
      .toBuffer();
    expect(dirty.includes("WEBP-GPS-TRACE")).toBe(true);
    const clean = await cleanImage(dirty, "image/webp");
    expect(clean.includes("WEBP-GPS-TRACE")).toBe(false);
    expect(clean.includes("EXIF")).toBe(false);
    expect((await sharp(clean).metadata()).format).toBe("webp");
  });

  it("refuses an image past the pixel bounds with 413 before decoding it", async () => {
    const claim = pngClaiming(60_000, 60_000);
    await expect(cleanImage(claim, "image/png")).rejects.toMatchObject({
      status: 413,
      message: expect.stringContaining("60000 × 60000 pixels"),
    });
    const side = Math.ceil(Math.sqrt(IMAGE_MAX_PIXELS)) + 1;
    await expect(cleanImage(pngClaiming(side, side), "image/png")).rejects.toMatchObject({
      status: 413,
    });
    await expect(cleanImage(pngClaiming(20_000, 10), "image/png")).rejects.toMatchObject({
      status: 413,
    });
  });

  it("refuses bytes that start like an image and are none with 415", async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
    await expect(cleanImage(fake, "image/jpeg")).rejects.toMatchObject({
      status: 415,
      message: "The image cannot be read: it is damaged or incomplete",
    });
    await expect(cleanImage(pngClaiming(40, 40), "image/png")).rejects.toMatchObject({
      status: 415,
    });
  });
});
