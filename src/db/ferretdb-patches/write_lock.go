// Added to FerretDB v1's command handler (package handler) by src/db/ferretdb-install.ts.
//
// FerretDB v1 runs an update as "read the matching documents, change them in Go, write each
// one back whole", with nothing held between the read and the write. Two writes to one
// document at once therefore lose one of them: a session revoked while its refresh token
// rotates came back live, and `$set: {a}` racing `$set: {b}` kept only one field in 294 of
// 300 tries. MongoDB applies each document's update atomically, and the service is written
// for that. So every write command (insert, update, findAndModify, delete) runs alone in
// this process; SQLite allows one writer at a time anyway, and reads are not held up.

package handler

import "sync"

var writes sync.Mutex

// serializeWrite waits for the write lock and returns its release.
func serializeWrite() func() {
	writes.Lock()
	return writes.Unlock
}
