// Added to FerretDB v1's command handler (package handler) by tools/dev-db/ferretdb-build.ts.
//
// FerretDB v1 runs an update as "read the matching documents, change them in Go, write each
// one back whole", with nothing held between the read and the write. Two writes to one
// document at once therefore lose one of them, and two conditional updates racing on one
// document (`findOneAndUpdate({_id, n: 0}, {$inc: {n: 1}})`) both find the precondition true
// and both succeed. MongoDB applies each document's update atomically, and the data layer keeps
// its invariants with exactly such updates. So the write commands (insert, update,
// findAndModify, delete) of one collection run one at a time in this process. Per collection,
// because an update whose filter SQLite cannot use reads the whole collection first: a slow
// write to one collection must not hold up the others. Reads are never held up.

package handler

import (
	"sync"

	"github.com/FerretDB/wire"

	"github.com/FerretDB/FerretDB/internal/bson"
)

var (
	writeLocksMu sync.Mutex
	writeLocks   = map[string]*sync.Mutex{}
)

// serializeWrite waits for the write lock of the command's collection and returns its release.
func serializeWrite(msg *wire.OpMsg) func() {
	lock := writeLockOf(namespaceOf(msg))
	lock.Lock()
	return lock.Unlock
}

// namespaceOf names the command's collection as "db.collection" ("" if the command is malformed,
// which the handler then reports).
func namespaceOf(msg *wire.OpMsg) string {
	doc, err := bson.ToDocument(msg.RawSection0())
	if err != nil {
		return ""
	}
	collection, _ := doc.Get(doc.Command())
	db, _ := doc.Get("$db")
	collectionName, _ := collection.(string)
	dbName, _ := db.(string)
	return dbName + "." + collectionName
}

func writeLockOf(namespace string) *sync.Mutex {
	writeLocksMu.Lock()
	defer writeLocksMu.Unlock()
	lock := writeLocks[namespace]
	if lock == nil {
		lock = new(sync.Mutex)
		writeLocks[namespace] = lock
	}
	return lock
}
