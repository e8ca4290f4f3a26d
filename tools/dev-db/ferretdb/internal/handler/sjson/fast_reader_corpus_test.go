// Added to FerretDB v1's storage format (package sjson) by tools/dev-db/ferretdb-build.ts: the
// documents and texts fast_reader_test.go reads with both readers.

package sjson

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/internal/types"
)

func doc(pairs ...any) *types.Document {
	d, err := types.NewDocument(pairs...)
	if err != nil {
		panic(err)
	}

	return d
}

func arr(values ...any) *types.Array {
	a, err := types.NewArray(values...)
	if err != nil {
		panic(err)
	}

	return a
}

// unencodable: values Marshal refuses (JSON has no NaN or infinities), so no stored
// document holds them.
var unencodable = []any{math.NaN(), math.Inf(1), math.Inf(-1)}

func scalars() []any {
	negZero := math.Copysign(0, -1)
	long := strings.Repeat("long text é ", 2000)
	bin := make([]byte, 1000)

	for i := range bin {
		bin[i] = byte(i * 7)
	}

	return []any{
		0.0, negZero, 1.0, -1.0, 0.1, 1.5, math.Pi, 1e21, 1e-7, 123456789.123, float64(1 << 53), float64(1<<53 + 2),
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		2.2250738585072014e-308, 1e308, float64(math.MaxInt64), float64(math.MinInt64),
		int32(0), int32(1), int32(-1), int32(math.MaxInt32), int32(math.MinInt32),
		int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64), int64(1<<53 + 1),
		int64(math.MaxInt32 + 1), int64(math.MinInt32 - 1),
		"", "a", `with "quotes"`, `back\slash`, "\n\r\t\b\f", "\x00", "\x01\x1f\x7f", "/ and \\/",
		"é", "日本語", "emoji 😀", "\u2028\u2029", "<script>&amp;</script>", "\xff\xfe invalid",
		"\xed\xa0\x80 surrogate bytes", "a\x80b", `\u0041 written out`, `\ud800`, "null", "true",
		"123", `{"$s":{}}`, `","b":1`, long,
		true, false,
		time.UnixMilli(0), time.UnixMilli(-1), time.UnixMilli(1_700_000_000_123),
		time.UnixMilli(math.MaxInt64), time.UnixMilli(math.MinInt64), time.Unix(0, 1_500_000),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC),
		types.Binary{B: []byte{}, Subtype: types.BinaryGeneric},
		types.Binary{B: []byte{0, 1, 2, 255}, Subtype: types.BinaryFunction},
		types.Binary{B: bin, Subtype: types.BinaryUUID},
		types.Binary{B: []byte("x"), Subtype: types.BinaryGenericOld},
		types.Binary{B: []byte("xy"), Subtype: types.BinaryUser},
		types.Binary{B: []byte{0xff}, Subtype: types.BinarySubtype(0xff)},
		types.ObjectID{}, types.ObjectID{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		types.ObjectID{0x65, 0x5f, 0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x81, 0x92, 0xa3},
		types.Regex{}, types.Regex{Pattern: "^a.*$", Options: "i"},
		types.Regex{Pattern: `\d+\"/`, Options: "imsx"}, types.Regex{Pattern: "日本", Options: "u"},
		types.Timestamp(0), types.Timestamp(1), types.Timestamp(math.MaxUint64), types.Timestamp(1<<32 | 1),
		types.Null,
		doc(), arr(),
	}
}

func keys() []string {
	return []string{
		"", "v", ".", "a.b", "$", "$s", "$k", "p", "t", "i", "s", "o", "$numberLong", "_id",
		"日本", "é", "with space", `quote"`, `back\slash`, "<&>", "\u2028", "\x00", "\xff",
		"emoji😀", strings.Repeat("k", 300),
	}
}

// nested returns a value levels deep: a document and an array in turn.
func nested(levels int) any {
	var v any = "bottom"
	for i := 0; i < levels; i++ {
		if i%2 == 0 {
			v = doc("d", v)
		} else {
			v = arr(v, int32(i))
		}
	}

	return v
}

func member(r *rand.Rand) *types.Document {
	id := types.ObjectID{}
	r.Read(id[:])

	created := time.UnixMilli(1_600_000_000_000 + r.Int63n(200_000_000_000))

	return doc(
		"_id", fmt.Sprintf("0190%028x", r.Uint64()), "userId", fmt.Sprintf("%032x", r.Uint64()),
		"status", []string{"PENDING", "APPROVED", "REJECTED"}[r.Intn(3)],
		"firstName", "María José", "lastName", "Dela Cruz", "mobilePhoneNumber", "09171234567",
		"homeAddress", "12 Rizal St., Brgy. San Isidro, Quezon City", "nationality", "Filipino",
		"region", "NCR", "province", "Metro Manila", "municipalityCity", "Quezon City",
		"barangay", "San Isidro", "height", "165 cm", "weight", "60 kg", "bloodType", "O+",
		"sssNumber", "enc:1:0a1b2c3d:AbC_d-EfG", "tinNumber", types.Null, "recentIdPhotoUrl", types.Null,
		"dateOfBirth", time.UnixMilli(-300_000_000_000), "preferredBranchIds", arr("b1", "b2"),
		"ministerialExperiences", arr(doc("roleDescription", "Youth pastor", "yearsApprox", "5 years")),
		"characterReferences", arr(doc("name", "Ptr. Juan", "positionRelationship", "Senior Pastor")),
		"signature", doc("type", "DRAWN", "signatureData", "data:image/svg+xml;base64,PHN2Zz4="),
		"privacyConsent", doc("noticeVersion", "2024-01", "consentedAt", created),
		"archivedAt", types.Null, "activeOffices", int32(r.Intn(3)), "openKey", id,
		"statusHistory", arr(doc("from", types.Null, "to", "PENDING", "at", created, "reason", types.Null)),
		"searchText", "maria jose dela cruz 09171234567", "createdAt", created, "updatedAt", created,
		"__v", int32(0), "score", r.Float64(),
	)
}

func randomValue(r *rand.Rand, pool []any, levels int) any {
	switch n := r.Intn(12); {
	case n == 0 && levels > 0:
		return randomDoc(r, pool, levels-1)
	case n == 1 && levels > 0:
		items := make([]any, r.Intn(5))
		for i := range items {
			items[i] = randomValue(r, pool, levels-1)
		}

		return arr(items...)
	case n == 2:
		return r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20))
	case n == 3:
		return r.Int63() - r.Int63()
	case n == 4:
		b := make([]byte, r.Intn(12))
		r.Read(b)

		return string(b)
	default:
		return pool[r.Intn(len(pool))]
	}
}

func randomDoc(r *rand.Rand, pool []any, levels int) *types.Document {
	names := keys()
	d := doc()

	for n := r.Intn(10); n > 0; n-- {
		key := names[r.Intn(len(names))]
		if r.Intn(2) == 0 {
			key = fmt.Sprintf("f%d", r.Intn(30))
		}

		if !d.Has(key) {
			d.Set(key, randomValue(r, pool, levels))
		}
	}

	return d
}

// randomDocs are the last documents of the corpus.
const randomDocs = 2000

// corpus returns documents covering every type FerretDB stores, alone and nested, under plain
// and awkward field names, plus random ones built from the same values.
func corpus() []*types.Document {
	pool := scalars()

	var docs []*types.Document
	for _, v := range pool {
		docs = append(docs,
			doc("v", v), doc("d", doc("v", v)), doc("a", arr(v, v)), doc("x", int32(1), "v", v, "y", "z"),
			doc("a", arr(arr(v), doc("v", v), arr())),
		)
	}

	docs = append(docs, doc(), doc("d", doc()), doc("a", arr()), doc("a", arr(doc(), arr(), types.Null)))

	for _, key := range keys() {
		docs = append(docs, doc(key, int32(1)), doc("d", doc(key, "v")), doc("a", arr(doc(key, true))))
	}

	docs = append(docs,
		doc("$s", doc("p", doc(), "$k", arr())), // the stock reader takes this field for the schema
		doc("a", int32(1), "$s", "x"),
		doc("v", nested(100)), doc("v", nested(4000)), // stock's JSON decoder refuses the second
	)

	r := rand.New(rand.NewSource(31))
	for i := 0; i < 200; i++ {
		docs = append(docs, member(r))
	}

	for i := 0; i < randomDocs; i++ {
		docs = append(docs, randomDoc(r, pool, 3))
	}

	return docs
}

// handWritten are texts Marshal does not write: whitespace, other orders, repeated keys,
// numbers and types out of place, broken schemas, truncated or trailing text.
var handWritten = []string{
	`{}`, `{"$s":{}}`, `{ "$s":{}}`, `{"$s":{} }`, "{\"$s\":{}}\n", `{"$s":{}}x`, `{"$s":{}}{}`,
	`{"$s":{},"$s":{}}`, `{"$s":{"p":{},"$k":[]}}`, `{"$s":{"$k":[],"p":{}}}`, `{"$s":null}`,
	`{"a":1,"$s":{"p":{"a":{"t":"int"}},"$k":["a"]}}`,
	`{"$s":{"p":{"a":{"t":"int"},"b":{"t":"int"}},"$k":["a","b"]},"b":2,"a":1}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1,"a":2}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"\u0061":1}`,
	`{"$s":{"p":{"\u0061":{"t":"int"}},"$k":["a"]},"a":1}`,
	`{"$s":{"p":{"a":{"t":"int"},"b":{"t":"int"}},"$k":["b","a"]},"a":1,"b":2}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":["a","a"]},"a":1}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":[]},"a":1}`, `{"$s":{"p":{"a":{"t":"int"}}},"a":1}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":null},"a":1}`, `{"$s":{"p":{},"$k":["a"]},"a":null}`,
	`{"$s":{"p":{"a":{"t":"int","x":1}},"$k":["a"]},"a":1}`,
	`{"$s":{"p":{"a":{"T":"int"}},"$k":["a"]},"a":1}`,
	`{"$s":{"p":{"a":{"t":"\u0069nt"}},"$k":["a"]},"a":1}`,
	`{"$s":{"p":{"a":{"t":"decimal"}},"$k":["a"]},"a":1}`,
	`{"$s":{"p":{"a":{"t":"double","o":"i"}},"$k":["a"]},"a":1}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1.0}`, `{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1e2}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":-0}`, `{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":01}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":+1}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":2147483648}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":-2147483649}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":"1"}`,
	`{"$s":{"p":{"a":{"t":"long"}},"$k":["a"]},"a":9223372036854775808}`,
	`{"$s":{"p":{"a":{"t":"long"}},"$k":["a"]},"a":-9223372036854775809}`,
	`{"$s":{"p":{"a":{"t":"long"}},"$k":["a"]},"a":1.5}`,
	`{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":NaN}`,
	`{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":Infinity}`,
	`{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":-Infinity}`,
	`{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":1e400}`,
	`{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":-1e400}`,
	`{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":1e-400}`,
	`{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":-0.0}`,
	`{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":-0e-0}`,
	`{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":.5}`, `{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":5.}`,
	`{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":0x10}`, `{"$s":{"p":{"a":{"t":"double"}},"$k":["a"]},"a":1E+2}`,
	`{"$s":{"p":{"a":{"t":"timestamp"}},"$k":["a"]},"a":-1}`,
	`{"$s":{"p":{"a":{"t":"timestamp"}},"$k":["a"]},"a":-0}`,
	`{"$s":{"p":{"a":{"t":"timestamp"}},"$k":["a"]},"a":18446744073709551616}`,
	`{"$s":{"p":{"a":{"t":"date"}},"$k":["a"]},"a":1.5}`,
	`{"$s":{"p":{"a":{"t":"date"}},"$k":["a"]},"a":-9223372036854775808}`,
	`{"$s":{"p":{"a":{"t":"bool"}},"$k":["a"]},"a":True}`, `{"$s":{"p":{"a":{"t":"bool"}},"$k":["a"]},"a":1}`,
	`{"$s":{"p":{"a":{"t":"bool"}},"$k":["a"]},"a":"true"}`,
	`{"$s":{"p":{"a":{"t":"null"}},"$k":["a"]},"a":0}`, `{"$s":{"p":{"a":{"t":"string"}},"$k":["a"]},"a":nul}`,
	"{\"$s\":{\"p\":{\"a\":{\"t\":\"string\"}},\"$k\":[\"a\"]},\"a\":\"raw\tcontrol\"}",
	`{"$s":{"p":{"a":{"t":"string"}},"$k":["a"]},"a":"bad \x escape"}`,
	`{"$s":{"p":{"a":{"t":"string"}},"$k":["a"]},"a":"lone \ud800 surrogate"}`,
	`{"$s":{"p":{"a":{"t":"string"}},"$k":["a"]},"a":"pair \ud83d\ude00"}`,
	`{"$s":{"p":{"a":{"t":"string"}},"$k":["a"]},"a":"\u00e9 \/ \"\\"}`,
	`{"$s":{"p":{"a":{"t":"string"}},"$k":["a"]},"a":"unterminated}`,
	"{\"$s\":{\"p\":{\"a\":{\"t\":\"string\"}},\"$k\":[\"a\"]},\"a\":\"\xff\xfe\"}",
	`{"$s":{"p":{"a":{"t":"objectId"}},"$k":["a"]},"a":"655F1A2B3C4D5E6F708192A3"}`,
	`{"$s":{"p":{"a":{"t":"objectId"}},"$k":["a"]},"a":"655f1a2b3c4d5e6f708192a"}`,
	`{"$s":{"p":{"a":{"t":"objectId"}},"$k":["a"]},"a":"655f1a2b3c4d5e6f708192a3ff"}`,
	`{"$s":{"p":{"a":{"t":"objectId"}},"$k":["a"]},"a":"zz5f1a2b3c4d5e6f708192a3"}`,
	`{"$s":{"p":{"a":{"t":"binData","s":0}},"$k":["a"]},"a":"AAEC/w=="}`,
	`{"$s":{"p":{"a":{"t":"binData","s":0}},"$k":["a"]},"a":"AAEC\n/w=="}`,
	`{"$s":{"p":{"a":{"t":"binData","s":0}},"$k":["a"]},"a":"AAEC\/w=="}`,
	`{"$s":{"p":{"a":{"t":"binData","s":0}},"$k":["a"]},"a":"AAEC/w"}`,
	`{"$s":{"p":{"a":{"t":"binData","s":0}},"$k":["a"]},"a":"!!!!"}`,
	`{"$s":{"p":{"a":{"t":"binData","s":256}},"$k":["a"]},"a":""}`,
	`{"$s":{"p":{"a":{"t":"binData","s":-1}},"$k":["a"]},"a":""}`,
	`{"$s":{"p":{"a":{"t":"binData","s":1.0}},"$k":["a"]},"a":""}`,
	`{"$s":{"p":{"a":{"t":"binData"}},"$k":["a"]},"a":""}`,
	`{"$s":{"p":{"a":{"t":"regex"}},"$k":["a"]},"a":"x"}`, `{"$s":{"p":{"a":{"t":"regex","o":null}},"$k":["a"]},"a":"x"}`,
	`{"$s":{"p":{"a":{"t":"regex","o":1}},"$k":["a"]},"a":"x"}`,
	`{"$s":{"p":{"a":{"t":"regex","o":"\u0069"}},"$k":["a"]},"a":"x"}`,
	`{"$s":{"p":{"a":{"t":"object","$s":{"p":{"b":{"t":"int"}},"$k":["b"]}}},"$k":["a"]},"a":{}}`,
	`{"$s":{"p":{"a":{"t":"object","$s":{}}},"$k":["a"]},"a":{"b":1}}`,
	`{"$s":{"p":{"a":{"t":"object","$s":{"p":{"$s":{"t":"int"}},"$k":["$s"]}}},"$k":["a"]},"a":{"$s":1}}`,
	`{"$s":{"p":{"a":{"t":"object","$s":null}},"$k":["a"]},"a":{}}`,
	`{"$s":{"p":{"a":{"t":"object"}},"$k":["a"]},"a":{}}`,
	`{"$s":{"p":{"a":{"t":"array","i":[{"t":"int"}]}},"$k":["a"]},"a":[]}`,
	`{"$s":{"p":{"a":{"t":"array","i":[{"t":"int"}]}},"$k":["a"]},"a":[1,2]}`,
	`{"$s":{"p":{"a":{"t":"array","i":[]}},"$k":["a"]},"a":[1]}`,
	`{"$s":{"p":{"a":{"t":"array"}},"$k":["a"]},"a":[]}`, `{"$s":{"p":{"a":{"t":"array","i":null}},"$k":["a"]},"a":[]}`,
	`{"$s":{"p":{"a":{"t":"array","i":[null]}},"$k":["a"]},"a":[null]}`,
	`{"$s":{"p":{"a":{"t":"array","i":[{"t":"int"}]}},"$k":["a"]},"a":[null]}`,
	`{"$s":{"p":{"a":{"t":"array","i":[{"t":"int"}]}},"$k":["a"]},"a":null}`,
	`{"$s":{"p":{"a":{"t":"array","i":[{"t":"int"}]}},"$k":["a"]},"a":[1 ]}`,
	`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1`, `{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]}`,
}

// corpusTexts is what Marshal writes for the corpus, and whether the fast reader must accept it.
func corpusTexts(tb testing.TB) (texts [][]byte, mustAccept []bool) {
	for _, d := range corpus() {
		data, err := Marshal(d)
		if err != nil {
			tb.Fatalf("Marshal refused a document of the corpus: %v", err)
		}

		texts = append(texts, data)
		mustAccept = append(mustAccept, !mayDecline(d))
	}

	return texts, mustAccept
}
