import fs from "node:fs";
import http from "node:http";
import path from "node:path";

/**
 * A stand-in for the organisation's site in a browser test: one page on its own origin that
 * loads npm packages as the browser's native ES modules, straight from node_modules (no
 * bundler is installed). An import map sends each bare specifier to `/esm/<specifier>`, which
 * this server resolves through the package's `exports` (the `browser`/`import` conditions) and
 * redirects to the file under `/nm/`, so the module's own relative imports resolve beside it.
 */
const NODE_MODULES = fs.realpathSync(path.join(__dirname, "../../node_modules"));
const CONDITIONS = ["browser", "import", "module", "default"];

export interface EsmSite {
  origin: string;
  close(): Promise<void>;
}

/** Serves `page` (HTML body; its import map names `packages`) at `/` on `host:port`. */
export async function startEsmSite(options: {
  host: string;
  port: number;
  packages: string[];
  page: string;
}): Promise<EsmSite> {
  const imports = Object.fromEntries(
    options.packages.flatMap((name) => [
      [name, `/esm/${name}`],
      [`${name}/`, `/esm/${name}/`],
    ]),
  );
  const html =
    '<!doctype html><html><head><meta charset="utf-8"><title>site</title>' +
    `<script type="importmap">${JSON.stringify({ imports })}</script></head>` +
    `<body>${options.page}</body></html>`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://site.invalid");
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    } else if (url.pathname.startsWith("/esm/")) {
      const file = resolveSpecifier(decodeURIComponent(url.pathname.slice("/esm/".length)));
      if (!file) res.writeHead(404).end();
      else res.writeHead(302, { location: `/nm/${file}` }).end();
    } else if (url.pathname.startsWith("/nm/")) {
      const file = path.join(NODE_MODULES, decodeURIComponent(url.pathname.slice("/nm/".length)));
      if (
        !file.startsWith(NODE_MODULES + path.sep) ||
        !/\.m?js$/.test(file) ||
        !fs.existsSync(file)
      ) {
        res.writeHead(404).end();
      } else {
        res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
        fs.createReadStream(file).pipe(res);
      }
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port, "127.0.0.1", resolve));
  return {
    origin: `http://${options.host}:${options.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The file (relative to node_modules) a bare specifier names for a browser's `import`. */
function resolveSpecifier(specifier: string): string | null {
  const segments = specifier.split("/");
  const name = segments.slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
  const subpath = `.${specifier.slice(name.length)}`;
  const manifest = path.join(NODE_MODULES, name, "package.json");
  if (!fs.existsSync(manifest)) return null;
  const pkg = JSON.parse(fs.readFileSync(manifest, "utf8")) as {
    exports?: unknown;
    module?: string;
    main?: string;
  };
  let target: string | null;
  if (pkg.exports === undefined) {
    target = subpath === "." ? (pkg.module ?? pkg.main ?? "index.js") : subpath;
  } else {
    const exports = pkg.exports as Record<string, unknown>;
    target = pick(exports[subpath]);
    if (target === null) {
      // A subpath pattern: "./*" → "./esm/*.js".
      for (const [key, value] of Object.entries(exports)) {
        if (!key.includes("*")) continue;
        const [before, after] = key.split("*");
        if (subpath.startsWith(before) && subpath.endsWith(after)) {
          const star = subpath.slice(before.length, subpath.length - after.length);
          target = pick(value)?.replace("*", star) ?? null;
          break;
        }
      }
    }
  }
  return target === null ? null : path.posix.join(name, target);
}

/** The export a browser's `import` takes from a conditions object (nested ones too). */
function pick(entry: unknown): string | null {
  if (typeof entry === "string") return entry;
  if (entry === null || typeof entry !== "object") return null;
  for (const condition of CONDITIONS) {
    const found = pick((entry as Record<string, unknown>)[condition]);
    if (found !== null) return found;
  }
  return null;
}
