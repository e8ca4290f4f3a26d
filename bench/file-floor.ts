/**
 * The floor of a signed-link read: `GET /raw-files/<key>` answered by a plain node handler
 * straight from the storage driver, with none of the service's work (request shell, link
 * check, record lookup, headers). It listens on the floor's port inside the service's process
 * (bench/service-with-floor.ts), over a driver made from the service's own configuration, so
 * it streams the very bytes the service streams, in the same heap.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import type { ObjectStorage } from "../src/storage/object-storage";

export const RAW_FILES_PATH = "/raw-files/";

/** Answers `GET /raw-files/<key>` and says so; false for any other request. */
export function fileFloor(storage: ObjectStorage) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" || !req.url?.startsWith(RAW_FILES_PATH)) return false;
    const key = req.url.slice(RAW_FILES_PATH.length);
    storage.get(key).then(
      async (body) => {
        res.writeHead(200, { "content-type": "application/pdf" });
        await pipeline(body, res).catch(() => res.destroy());
      },
      () => {
        res.writeHead(404).end();
      },
    );
    return true;
  };
}
