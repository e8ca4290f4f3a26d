// Added to FerretDB v1's SQLite backend (package sqlite) by tools/dev-db/ferretdb-build.ts.
//
// FerretDB v1 hands SQLite a filter only when it is exactly `{_id: <string or ObjectID>}`; any
// other filter reads the whole table and is applied in Go. Two more shapes the service relies
// on go through the `_id` index here: `{_id: {$in: [...]}}` of strings and ObjectIDs, how a page
// reads its records at once, and `_id` beside other conditions (`{_id, n: {$lt: 5}}`), how a
// conditional update states its precondition; such an update otherwise reads the whole
// collection while it holds that collection's write lock (write_lock.go). FerretDB still
// applies the whole filter to what SQLite returns, so the clause only narrows what is read; it
// never decides what matches.

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

// idCondition returns the filter's `_id` condition, or nil when there is none. A filter naming
// `_id` twice gets nil too: types.Document.Get panics on a repeated key.
func idCondition(filter *types.Document) any {
	var found any

	values := filter.Values()

	for i, key := range filter.Keys() {
		if key != "_id" {
			continue
		}

		if found != nil {
			return nil
		}

		found = values[i]
	}

	return found
}

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
