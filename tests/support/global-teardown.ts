import fs from "node:fs";

export default async function globalTeardown(): Promise<void> {
  await globalThis.__ENGINE__?.stop();
  if (globalThis.__ENGINE_DIR__)
    fs.rmSync(globalThis.__ENGINE_DIR__, { recursive: true, force: true });
}
