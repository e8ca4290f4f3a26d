// Added to FerretDB v1's SQLite backend (package sqlite) by src/db/ferretdb-install.ts.
//
// FerretDB v1 hands SQLite only a filter on one `_id` value; any other filter reads the whole
// table and filters it in Go. A filter `{_id: {$in: [...]}}` of string or ObjectID values is
// the service's way to read a page of records at once, so it becomes an IN over the same
// `_id` expression index. FerretDB still applies the whole filter to what SQLite returns, so
// the clause only narrows what is read; it never decides what matches.

package sqlite

import (
	"fmt"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// maxPushedIDs stays far below SQLite's limit on bound parameters.
const maxPushedIDs = 1000

// idInClause returns ` WHERE <_id> IN (?, ...)` and its arguments for `{$in: [...]}` of string
// and ObjectID values only, or "" when the condition is anything else.
func idInClause(condition *types.Document) (string, []any) {
	if condition.Len() != 1 {
		return "", nil
	}

	values, _ := condition.Get("$in")

	list, ok := values.(*types.Array)
	if !ok || list.Len() == 0 || list.Len() > maxPushedIDs {
		return "", nil
	}

	args := make([]any, 0, list.Len())

	for i := 0; i < list.Len(); i++ {
		v := must.NotFail(list.Get(i))

		switch v.(type) {
		case string, types.ObjectID:
			args = append(args, string(must.NotFail(sjson.MarshalSingleValue(v))))
		default:
			return "", nil
		}
	}

	placeholders := strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ")

	return fmt.Sprintf(` WHERE %s IN (%s)`, metadata.IDColumn, placeholders), args
}
