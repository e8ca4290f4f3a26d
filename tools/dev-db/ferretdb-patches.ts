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

export type PatchName = "id-index" | "id-pushdown" | "write-lock" | "duplicate-key" | "fast-reader";

/**
 * The changes the service's behaviour rests on, each with a test in
 * tests/db/ferretdb-engine.test.ts that fails without it, and one kept for speed alone, with a
 * differential test against FerretDB's own code and its measured gain in docs/performance.md
 * (docs/decisions.md, "The development database").
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
  {
    // Speed alone: FerretDB's reader of stored documents decodes every value several times
    // over, and a filter SQLite is not handed reads the whole collection through it. The
    // one-pass reader (tools/dev-db/ferretdb/internal/handler/sjson/fast_reader.go) answers first and
    // leaves what it is unsure of to FerretDB's, kept callable as stockUnmarshal so that
    // fast_reader_test.go holds the two to the same answers (tests/db/ferretdb-reader.test.ts
    // runs it; `npm run bench -- --only=reader` measures the gain, bench/engine-reader.ts).
    name: "fast-reader",
    files: [
      "fast_reader.go",
      "fast_reader_json.go",
      "fast_reader_schema.go",
      "fast_reader_test.go",
      "fast_reader_corpus_test.go",
    ].map((file) => `internal/handler/sjson/${file}`),
    edits: [
      {
        file: "internal/handler/sjson/sjson.go",
        from: "func Unmarshal(data []byte) (*types.Document, error) {\n",
        to:
          "func Unmarshal(data []byte) (*types.Document, error) {\n" +
          "\tif doc, ok := fastUnmarshal(data); ok {\n\t\treturn doc, nil\n\t}\n\n" +
          "\treturn stockUnmarshal(data)\n}\n\n" +
          "// stockUnmarshal is FerretDB's own Unmarshal, which fastUnmarshal must agree with.\n" +
          "func stockUnmarshal(data []byte) (*types.Document, error) {\n",
      },
    ],
  },
];

export const PATCH_NAMES: readonly PatchName[] = PATCHES.map((patch) => patch.name);
