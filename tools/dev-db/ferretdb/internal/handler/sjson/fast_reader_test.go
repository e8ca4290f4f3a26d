// Added to FerretDB v1's storage format (package sjson) by tools/dev-db/ferretdb-build.ts, with
// fast_reader.go; run by tests/db/ferretdb-reader.test.ts.
//
// The one-pass reader is kept for speed alone, so it must never change what is read: for every
// text, either it declines, or stockUnmarshal (FerretDB's own reader) succeeds on that text
// and returns the same document: same keys in the same order, same Go types, same values bit
// for bit. It must also accept what Marshal writes (but for the few shapes it leaves to the
// stock reader on purpose), or the speed it is kept for is silently gone.

package sjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/internal/types"
)

// checkAgainstStock fails when fastUnmarshal accepts data and stockUnmarshal disagrees.
// It returns whether fastUnmarshal accepted.
func checkAgainstStock(t testing.TB, data []byte) bool {
	t.Helper()

	fast, ok := fastUnmarshal(data)
	stock, err := stockUnmarshal(data)

	public, publicErr := Unmarshal(data)
	if (publicErr == nil) != (err == nil) {
		t.Fatalf("Unmarshal and stockUnmarshal disagree on failing for %q: %v, %v", data, publicErr, err)
	}

	if !ok {
		if err == nil {
			if diff := difference(public, stock); diff != "" {
				t.Fatalf("Unmarshal differs from stockUnmarshal for %q: %s", data, diff)
			}
		}

		return false
	}

	if err != nil {
		t.Fatalf("fast reader accepted what the stock reader refuses (%v): %q", err, data)
	}

	if diff := difference(fast, stock); diff != "" {
		t.Fatalf("fast reader differs from the stock reader for %q: %s", data, diff)
	}

	return true
}

// difference describes how a differs from b, strictly: Go types, key order, float bits
// (0 and -0 differ), time locations, nil and empty byte slices; "" when they are the same.
func difference(a, b any) string {
	if ta, tb := fmt.Sprintf("%T", a), fmt.Sprintf("%T", b); ta != tb {
		return fmt.Sprintf("type %s, stock %s", ta, tb)
	}

	switch a := a.(type) {
	case *types.Document:
		b := b.(*types.Document)
		if ka, kb := a.Keys(), b.Keys(); !reflect.DeepEqual(ka, kb) {
			return fmt.Sprintf("keys %q, stock %q", ka, kb)
		}

		vb := b.Values()
		for i, v := range a.Values() {
			if diff := difference(v, vb[i]); diff != "" {
				return fmt.Sprintf("%q: %s", a.Keys()[i], diff)
			}
		}

		if !reflect.DeepEqual(a, b) {
			return fmt.Sprintf("document internals %#v, stock %#v", a, b)
		}
	case *types.Array:
		b := b.(*types.Array)
		if a.Len() != b.Len() {
			return fmt.Sprintf("%d items, stock %d", a.Len(), b.Len())
		}

		for i := 0; i < a.Len(); i++ {
			va, _ := a.Get(i)
			vb, _ := b.Get(i)

			if diff := difference(va, vb); diff != "" {
				return fmt.Sprintf("[%d]: %s", i, diff)
			}
		}

		if !reflect.DeepEqual(a, b) {
			return fmt.Sprintf("array internals %#v, stock %#v", a, b)
		}
	case float64:
		if math.Float64bits(a) != math.Float64bits(b.(float64)) {
			return fmt.Sprintf("%v (bits %x), stock %v (bits %x)", a, math.Float64bits(a), b, math.Float64bits(b.(float64)))
		}
	case time.Time:
		b := b.(time.Time)
		if !a.Equal(b) || a.Location() != b.Location() || !reflect.DeepEqual(a, b) {
			return fmt.Sprintf("%v, stock %v", a, b)
		}
	case types.Binary:
		b := b.(types.Binary)
		if a.Subtype != b.Subtype || !bytes.Equal(a.B, b.B) || (a.B == nil) != (b.B == nil) {
			return fmt.Sprintf("%#v, stock %#v", a, b)
		}
	default:
		if a != b {
			return fmt.Sprintf("%#v, stock %#v", a, b)
		}
	}

	return ""
}

// mayDecline: shapes of Marshal's output the fast reader leaves to the stock reader on purpose.
// Marshal writes top-level keys unescaped while the schema holds them escaped, so keys that
// JSON escapes never match; a top-level "$s" field collides with the schema.
func mayDecline(doc *types.Document) bool {
	for _, key := range doc.Keys() {
		quoted, _ := json.Marshal(key)
		if key == "$s" || string(quoted) != `"`+key+`"` {
			return true
		}
	}

	return depth(doc) > 100
}

func depth(v any) int {
	deepest := 0

	switch v := v.(type) {
	case *types.Document:
		for _, item := range v.Values() {
			deepest = max(deepest, depth(item))
		}
	case *types.Array:
		for i := 0; i < v.Len(); i++ {
			item, _ := v.Get(i)
			deepest = max(deepest, depth(item))
		}
	default:
		return 0
	}

	return deepest + 1
}

func TestFastReaderMatchesStock(t *testing.T) {
	texts, mustAccept := corpusTexts(t)
	for i, data := range texts {
		if !checkAgainstStock(t, data) && mustAccept[i] {
			t.Errorf("fast reader declined what Marshal wrote: %.300q", data)
		}
	}

	for _, text := range handWritten {
		checkAgainstStock(t, []byte(text))
	}
}

func TestFastReaderMarshalRefusesNonFinite(t *testing.T) {
	for _, v := range unencodable {
		if _, err := Marshal(doc("v", v)); err == nil {
			t.Errorf("Marshal wrote %v, which the corpus leaves out as unencodable", v)
		}
	}
}

// TestFastReaderMutations: every truncation of short stored texts, and each byte of them
// replaced by bytes that change the JSON's structure or a value's type.
func TestFastReaderMutations(t *testing.T) {
	texts, _ := corpusTexts(t)
	replacements := []byte{'0', '9', '-', '.', 'e', '"', '\\', '{', '}', '[', ']', ',', ':', ' ', 'n', 0x80}

	mutated := 0
	for _, data := range texts {
		if len(data) > 200 || mutated == 300 {
			continue
		}

		mutated++

		for end := 0; end < len(data); end++ {
			checkAgainstStock(t, data[:end])
		}

		for i := range data {
			b := bytes.Clone(data)
			for _, c := range replacements {
				b[i] = c
				checkAgainstStock(t, b)
			}
		}
	}
}

// TestFastReaderSchemaCache: a schema read from the cache gives what a freshly parsed one gives.
func TestFastReaderSchemaCache(t *testing.T) {
	texts, _ := corpusTexts(t)
	for round := 0; round < 2; round++ {
		for _, data := range texts {
			checkAgainstStock(t, data)
		}
	}
}

func FuzzFastReader(f *testing.F) {
	// The random documents but a few: they add little the mutator would not find, and every
	// seed takes a share of the time the fuzzer is given.
	texts, _ := corpusTexts(f)
	for _, data := range texts[:len(texts)-randomDocs+100] {
		f.Add(data)
	}

	for _, text := range handWritten {
		f.Add([]byte(text))
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		checkAgainstStock(t, data)

		// What the stock reader read, written back by Marshal, the fast reader must read too.
		stock, err := stockUnmarshal(data)
		if err != nil || mayDecline(stock) {
			return
		}

		again, err := Marshal(stock)
		if err != nil {
			return
		}

		if !checkAgainstStock(t, again) {
			t.Fatalf("fast reader declined what Marshal wrote: %q", again)
		}
	})
}
