/**
 * What a person starting the service reads when it cannot start: what went wrong and what to
 * do, in a few lines, rather than a stack trace. Only failures nobody can fix from the message
 * alone (a bug) keep their stack.
 */
export function startupProblem(error: unknown): string {
  if (error instanceof StartupRefusal) return `Cannot start: ${error.message}.`;
  const failure = error as (NodeJS.ErrnoException & { address?: string; port?: number }) | null;
  const message = error instanceof Error ? error.message : String(error);
  if (failure?.code === "EADDRINUSE") {
    const where = `${failure.address ?? "0.0.0.0"}:${failure.port ?? "?"}`;
    return [
      `Cannot start: port ${failure.port ?? "?"} is already in use (EADDRINUSE ${where}).`,
      "Another copy of the service, or another program, is listening there. Stop it, or start",
      `on another port: PORT=${(failure.port ?? 4000) + 1} npm start`,
    ].join("\n");
  }
  if (failure?.code === "EACCES" && failure.port !== undefined)
    return `Cannot start: no permission to listen on port ${failure.port} (ports below 1024 need root). Choose PORT=4000 or another above 1024.`;
  const unwritable = unwritablePlace(failure);
  if (unwritable)
    return [
      `Cannot start: ${unwritable}.`,
      "The service keeps its development database, uploaded files, mail outbox and keys in",
      "DATA_DIR: make that folder writable by the user running the service, or set DATA_DIR to",
      "one that is (the data stays as it was: nothing was started on it).",
    ].join("\n");
  if (/^DATA_DIR /.test(message)) return `Cannot start: ${message}.`;
  if (isDatabaseProblem(failure, message))
    return [
      "Cannot start: no database to be had.",
      `  ${withoutCredentials(message).split("\n")[0]}`,
      "With MONGODB_URI set, check that MongoDB runs and answers at that address (and that the",
      "user and password in it are right). Without it, `npm start` runs a development engine",
      "(tools/dev-db): a `mongod` on PATH, else an engine it builds with the Go toolchain",
      "(`go` on PATH; `npm run engine:install` builds it ahead of time). Install one of them, or run",
      "MongoDB (docker run -d -p 27017:27017 mongo:7) and set MONGODB_URI=mongodb://127.0.0.1:27017",
    ].join("\n");
  return `Cannot start: ${error instanceof Error ? (error.stack ?? message) : message}`;
}

/**
 * A refusal that says all there is to say in its message (e.g. another launcher runs the data
 * folder's database): printed as that one sentence, never with a stack.
 */
export class StartupRefusal extends Error {}

/** A file or folder the service may not write, as one clause; undefined for any other failure. */
function unwritablePlace(
  failure: (NodeJS.ErrnoException & { port?: number }) | null,
): string | undefined {
  if (!failure?.path || failure.port !== undefined) return undefined;
  if (failure.code === "EROFS") return `${failure.path} is on a read-only file system`;
  if (failure.code === "EACCES" || failure.code === "EPERM")
    return `${failure.path} may not be written by this user (${failure.code})`;
  return undefined;
}

function isDatabaseProblem(failure: { name?: string } | null, message: string): boolean {
  return (
    /^Mongo/.test(failure?.name ?? "") ||
    /Go toolchain|mongod\b|could not be built|did not answer ping|ECONNREFUSED/i.test(message)
  );
}

/** A connection string's password never reaches a terminal or a log. */
function withoutCredentials(text: string): string {
  return text.replace(/(mongodb(?:\+srv)?:\/\/)[^@/\s]+@/g, "$1***@");
}
