/**
 * Issue 48 point 1, as the organisation's site does it: the real `uploadthing` v7 client
 * (`genUploader` from `uploadthing/client`, the devDependency) in headless Chromium, on a page
 * of another origin, against the running service. Each of the site's four uploaders uploads
 * through it; the uploaded photo then goes into PUT /members/current/requirements as the site
 * sends it, and is drawn from its link. A refusal reaches the site as the client reports it.
 */
import type { Browser, Page } from "puppeteer-core";
import { chromiumPath, launchChromium } from "../support/chromium";
import { approvedMemberOf, bearer, type TestUser } from "../support/factories";
import { startEsmSite, type EsmSite } from "../support/esm-site";
import { freePort } from "../support/free-port";
import { rawDb } from "../support/raw-db";
import { samplePhotoPng } from "../support/sample-photo";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { JPEG, PDF, PNG, storageDir } from "../support/file-samples";

const storage = storageDir();

/** What the page hands back of the client's answer, or of its error. */
interface Outcome {
  ok: boolean;
  files?: {
    name: string;
    key: string;
    ufsUrl: string;
    fileHash: string;
    serverData: { fileId: string; fileUrl: string };
  }[];
  code?: string;
  message?: string;
  data?: { error?: string };
}

interface PageFile {
  name: string;
  type: string;
  base64: string;
}

const fileOf = (name: string, type: string, bytes: Buffer): PageFile => ({
  name,
  type,
  base64: bytes.toString("base64"),
});

(chromiumPath ? describe : describe.skip)(
  "the site's uploadthing client in headless Chromium",
  () => {
    let site: EsmSite;
    let app: TestApp;
    let admin: TestUser;
    let browser: Browser;
    let page: Page;
    let api: string;
    const failures: string[] = [];

    beforeAll(async () => {
      const sitePort = await freePort();
      site = await startEsmSite({
        host: "site.test",
        port: sitePort,
        packages: [
          "uploadthing",
          "@uploadthing/shared",
          "@uploadthing/mime-types",
          "effect",
          "sqids",
        ],
        page:
          '<script type="module">import { genUploader } from "uploadthing/client";' +
          "window.genUploader = genUploader;</script>",
      });
      ({ app, admin } = await startScenario({
        env: { ...storage.env, CORS_ORIGINS: site.origin },
      }));
      api = `http://api.test:${new URL(app.url).port}`;
      browser = await launchChromium(["site.test", "api.test"]);
      page = await browser.newPage();
      page.on("pageerror", (error) => failures.push(String(error)));
      await page.goto(`${site.origin}/`, { waitUntil: "networkidle0", timeout: 30_000 });
      await page.waitForFunction(() => "genUploader" in window, { timeout: 20_000 });
    }, 90_000);

    afterAll(async () => {
      await browser?.close();
      await app?.close();
      await site?.close();
    });

    /** `genUploader({url})` then `uploadFiles(slug, {files, headers})`, as the site calls them. */
    function uploadInPage(path: string, slug: string, user: TestUser, files: PageFile[]) {
      return page.evaluate(
        async ({ url, slug, token, files }) => {
          const { genUploader } = window as unknown as {
            genUploader: (options: { url: string }) => {
              uploadFiles: (
                slug: string,
                options: { files: File[]; headers: Record<string, string> },
              ) => Promise<Record<string, unknown>[]>;
            };
          };
          const { uploadFiles } = genUploader({ url });
          const list = files.map(
            (file) =>
              new File([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], file.name, {
                type: file.type,
              }),
          );
          try {
            const answer = await uploadFiles(slug, {
              files: list,
              headers: { authorization: `Bearer ${token}` },
            });
            return {
              ok: true,
              files: answer.map((file) => ({
                name: file.name,
                key: file.key,
                ufsUrl: file.ufsUrl,
                fileHash: file.fileHash,
                serverData: file.serverData,
              })),
            };
          } catch (error) {
            const { code, message, data } = error as {
              code: string;
              message: string;
              data: unknown;
            };
            return { ok: false, code, message, data };
          }
        },
        { url: `${api}/api/v1${path}`, slug, token: user.token, files },
      ) as Promise<Outcome>;
    }

    /** A JSON call from the page, with the member's Bearer, as the site makes them. */
    function callInPage(method: string, path: string, user: TestUser, body?: unknown) {
      return page.evaluate(
        async ({ url, method, token, body }) => {
          const response = await fetch(url, {
            method,
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          return {
            status: response.status,
            body: (await response.json()) as Record<string, unknown>,
          };
        },
        { url: `${api}/api/v1${path}`, method, token: user.token, body },
      );
    }

    it("uploads the 2x2 photo with requirementUploader and attaches it as the site does", async () => {
      const member = await approvedMemberOf(app, admin);
      const photo = await uploadInPage(
        "/members/requirements/upload",
        "requirementUploader",
        member.user,
        [fileOf("photo-2x2.png", "image/png", samplePhotoPng())],
      );
      expect(photo).toMatchObject({ ok: true, files: [{ name: "photo-2x2.png" }] });
      const [uploaded] = photo.files!;
      expect(uploaded.ufsUrl).toBe(uploaded.serverData.fileUrl);
      expect(uploaded.ufsUrl).toMatch(
        // Links name the service's own URL (PUBLIC_URL, else its HOST and port), whatever
        // host the site called it by.
        new RegExp(`^${app.url}/api/v1/files/${uploaded.serverData.fileId}\\?`),
      );
      const stored = await rawDb(app).files.findById(uploaded.serverData.fileId).lean();
      expect(stored).toMatchObject({
        ownerId: member.user.id,
        purpose: "REQUIREMENT",
        mimeType: "image/png",
      });
      expect(uploaded.fileHash).toBe(stored!.sha256);

      const attached = await callInPage("PUT", "/members/current/requirements", member.user, {
        attachments: [{ type: "PHOTO_2X2", fileUrl: uploaded.ufsUrl }],
      });
      expect(attached.status).toBe(200);
      const requirements = await app
        .http()
        .get("/api/v1/members/current/requirements")
        .set(bearer(member.user));
      expect(requirements.body.data.requirements).toEqual([
        expect.objectContaining({
          type: "PHOTO_2X2",
          reviewStatus: "PENDING",
          mimeType: "image/png",
        }),
      ]);
      // The site draws it from its link, on its own origin.
      const width = await page.evaluate(async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        return image.naturalWidth;
      }, uploaded.ufsUrl);
      expect(width).toBe(360);

      // A payment proof the same way, then named by its link on the payment step.
      const proof = await uploadInPage(
        "/members/requirements/upload",
        "requirementUploader",
        member.user,
        [fileOf("receipt.pdf", "application/pdf", PDF)],
      );
      expect(proof.ok).toBe(true);
      const paid = await callInPage("PUT", "/members/current/payment-checkout", member.user, {
        paymentMethod: "E_WALLET",
        proofOfPaymentUrl: proof.files![0].ufsUrl,
      });
      expect(paid.status).toBe(200);
      expect(failures).toEqual([]);
    }, 60_000);

    it("uploads with the certificate, public-record and avatar uploaders", async () => {
      const member = await approvedMemberOf(app, admin);
      const certificate = await uploadInPage(
        "/members/certificates/upload",
        "memberCertificateUploader",
        member.user,
        [fileOf("certificate.pdf", "application/pdf", PDF)],
      );
      expect(certificate.ok).toBe(true);
      const pictures = await uploadInPage(
        "/members/public-records/upload",
        "memberPublicRecordAttachmentUploader",
        member.user,
        [
          fileOf("a.png", "image/png", PNG),
          fileOf("b.jpg", "image/jpeg", JPEG),
          fileOf("c.png", "image/png", samplePhotoPng(80, 60)),
        ],
      );
      expect(pictures.ok).toBe(true);
      expect(pictures.files!.map((file) => file.name)).toEqual(["a.png", "b.jpg", "c.png"]);
      const avatar = await uploadInPage("/users/avatar/upload", "avatarUploader", member.user, [
        fileOf("me.png", "image/png", samplePhotoPng(120, 120)),
      ]);
      expect(avatar.ok).toBe(true);

      const purposes = await Promise.all(
        [certificate, pictures, avatar]
          .flatMap((outcome) => outcome.files!)
          .map(
            async (file) =>
              (await rawDb(app).files.findById(file.serverData.fileId).lean())?.purpose,
          ),
      );
      expect(purposes).toEqual([
        "CERTIFICATE",
        "PUBLIC_RECORD",
        "PUBLIC_RECORD",
        "PUBLIC_RECORD",
        "AVATAR",
      ]);
      const account = await callInPage("GET", "/users/current", member.user);
      expect(String((account.body.user as { avatar: string }).avatar)).toContain(
        `/files/${avatar.files![0].serverData.fileId}?`,
      );
      expect(failures).toEqual([]);
    }, 60_000);

    it("reports refusals the way the client does: presign messages, and the PUT's {error}", async () => {
      const member = await approvedMemberOf(app, admin);
      const tooMany = await uploadInPage(
        "/members/requirements/upload",
        "requirementUploader",
        member.user,
        [fileOf("a.pdf", "application/pdf", PDF), fileOf("b.pdf", "application/pdf", PDF)],
      );
      expect(tooMany).toMatchObject({
        ok: false,
        code: "BAD_REQUEST",
        message: "requirementUploader takes one file at a time",
      });
      const unknown = await uploadInPage(
        "/members/requirements/upload",
        "diplomaUploader",
        member.user,
        [fileOf("a.pdf", "application/pdf", PDF)],
      );
      expect(unknown).toMatchObject({
        ok: false,
        code: "NOT_FOUND",
        message: expect.stringContaining("diplomaUploader"),
      });

      // Declared a PDF, and the bytes are a web page: the presign passes, the PUT is refused.
      const records = await rawDb(app).files.countDocuments({ ownerId: member.user.id });
      const disguised = await uploadInPage(
        "/members/requirements/upload",
        "requirementUploader",
        member.user,
        [
          fileOf(
            "diploma.pdf",
            "application/pdf",
            Buffer.from("<!doctype html><script>alert(1)</script>"),
          ),
        ],
      );
      expect(disguised).toMatchObject({
        ok: false,
        code: "UPLOAD_FAILED",
        data: { error: expect.stringContaining("Only PDF, JPEG, PNG files are accepted") },
      });
      expect(await rawDb(app).files.countDocuments({ ownerId: member.user.id })).toBe(records);
      expect(failures).toEqual([]);
    }, 60_000);
  },
);
