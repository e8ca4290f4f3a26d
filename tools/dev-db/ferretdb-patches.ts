/** The patches the embedded FerretDB is built with (applied by ferretdb-build.ts). */

/**
 * A change to FerretDB's source. `files` are Go files of tools/dev-db/ferretdb, which mirrors
 * FerretDB's tree: each is copied to the same path there. An edit's `from` must occur exactly
 * once in its file, so a FerretDB release that moved the code fails the build loudly.
 */
export interface Patch {
  name: PatchName;
  files: string[];
  edits: { file: string; from: string; to: string }[];
}

export type PatchName = "id-index" | "id-pushdown" | "write-lock" | "duplicate-key";

/**
 * The changes the service's behaviour rests on, each with a test in
 * tests/db/ferretdb-engine.test.ts that fails without it (docs/decisions.md, "The development
 * database"): reads by `_id` through the `_id` index (their gain: docs/performance.md, "The speed
 * patches and the test suite"), atomic conditional updates, and E11000 from an update that
 * breaks a unique index.
 */
export const PATCHES: Patch[] = [
  {
    // FerretDB reads, updates and deletes a record by `_id` through `_ferretdb_sjson->'$._id'`
    // but builds the `_id` index on `_ferretdb_sjson->"_id"`. SQLite uses an expression index
    // only for the same expression, so every read by `_id` scanned the whole table. The same
    // JSON path spelled the way the index is built; stored data and indexes are unchanged.
    name: "id-index",
    files: [],
    edits: [
      {
        file: "internal/backends/sqlite/metadata/metadata.go",
        from: `IDColumn = DefaultColumn + "->'$._id'"`,
        to: `IDColumn = DefaultColumn + "->'_id'"`,
      },
    ],
  },
  {
    // `{_id: {$in: [...]}}` and `_id` beside a conditional update's precondition through the
    // same index (tools/dev-db/ferretdb/internal/backends/sqlite/id_pushdown.go).
    name: "id-pushdown",
    files: ["internal/backends/sqlite/id_pushdown.go"],
    edits: ["whereClause =", "filterPushdown = true"].map((firstLine) => ({
      file: "internal/backends/sqlite/collection.go",
      from:
        'if params.Filter.Len() == 1 {\n\t\tv, _ := params.Filter.Get("_id")\n' +
        `\t\tswitch v.(type) {\n\t\tcase string, types.ObjectID:\n\t\t\t${firstLine}`,
      to:
        "if v := idCondition(params.Filter); v != nil {\n\t\tswitch v := v.(type) {\n" +
        "\t\tcase *types.Document:\n\t\t\twhereClause, args = idInClause(v)\n" +
        (firstLine.startsWith("filterPushdown")
          ? '\t\t\tfilterPushdown = whereClause != ""\n'
          : "") +
        `\t\tcase string, types.ObjectID:\n\t\t\t${firstLine}`,
    })),
  },
  {
    // The write commands of one collection one at a time
    // (tools/dev-db/ferretdb/internal/handler/write_lock.go): FerretDB v1 reads a document, changes
    // it and writes it back with nothing held in between, so two conditional updates racing
    // on one document both succeeded and concurrent updates lost each other's changes.
    name: "write-lock",
    files: ["internal/handler/write_lock.go"],
    edits: ["Insert", "Update", "FindAndModify", "Delete"].map((command) => {
      const start = `func (h *Handler) Msg${command}(connCtx context.Context, msg *wire.OpMsg) (*wire.OpMsg, error) {\n`;
      return {
        file: `internal/handler/msg_${command.toLowerCase()}.go`,
        from: start,
        to: `${start}\tdefer serializeWrite(msg)()\n\n`,
      };
    }),
  },
  {
    // An update that breaks a unique index fails in SQLite as a constraint violation, which
    // FerretDB reports as an InternalError carrying SQLite's text; its inserts already map the
    // same violation to E11000. Mapped the same way for updates, so a client sees MongoDB's
    // code 11000 from updateOne and findAndModify alike.
    name: "duplicate-key",
    files: [],
    edits: [
      {
        file: "internal/backends/sqlite/collection.go",
        from:
          "r, err := tx.ExecContext(ctx, q, string(b), arg)\n\t\t\tif err != nil {\n" +
          "\t\t\t\treturn lazyerrors.Error(err)\n",
        to:
          "r, err := tx.ExecContext(ctx, q, string(b), arg)\n\t\t\tif err != nil {\n" +
          "\t\t\t\tvar se *sqlite3.Error\n" +
          "\t\t\t\tif errors.As(err, &se) && se.Code() == sqlite3lib.SQLITE_CONSTRAINT_UNIQUE {\n" +
          "\t\t\t\t\treturn backends.NewError(backends.ErrorCodeInsertDuplicateID, err)\n" +
          "\t\t\t\t}\n\n" +
          "\t\t\t\treturn lazyerrors.Error(err)\n",
      },
    ],
  },
];

export const PATCH_NAMES: readonly PatchName[] = PATCHES.map((patch) => patch.name);
