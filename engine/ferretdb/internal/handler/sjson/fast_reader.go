// Added to FerretDB v1's storage format (package sjson) by src/db/ferretdb-install.ts, which
// also renames FerretDB's own Unmarshal to stockUnmarshal and puts one that tries
// fastUnmarshal first in its place.
//
// FerretDB v1 on SQLite stores each document as JSON: its schema under "$s" (each field's
// type), then the fields. stockUnmarshal reads it with encoding/json one layer at a time: the
// document into a map of raw values, the schema through reflection, then every value again
// through a decoder of its own. Every filter the SQLite backend cannot hand to SQLite reads
// and decodes the whole collection, so that reader bounds how fast a scan can be.
//
// fastUnmarshal reads the form Marshal writes in one pass: the schema first, then the fields
// in the schema's key order, without whitespace. Whatever else it meets (another order, a
// repeated key, a number or type it does not expect, nesting deeper than any stored document)
// it leaves to stockUnmarshal by answering ok=false, so a document it accepts decodes to what
// stockUnmarshal returns, and one it declines gets stockUnmarshal's answer, error included.
// fast_reader_test.go holds it to that against the stock reader.
//
// Documents of one collection mostly share a handful of schemas, and a schema is much of a
// document's text, so parsed schemas are kept (bounded by the size of their text).

package sjson

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/FerretDB/FerretDB/internal/types"
)

// fastSchema is a document's schema: its keys in order, as written and decoded, and their
// elems. It is never changed once parsed, so one parsed schema serves many documents at once.
type fastSchema struct {
	rawKeys [][]byte
	keys    []string
	elems   []*fastElem
	// boxedKeys are keys as `any`, the form types.NewDocument takes, boxed once.
	boxedKeys []any
	// hasSchemaKey: a field named "$s". At the top level the stock reader takes the last "$s"
	// of the text for the schema, which is then that field, so such a document is left to it.
	hasSchemaKey bool
}

// fastSchemaCacheBytes bounds the text of the schemas kept; beyond it, schemas are parsed anew.
const fastSchemaCacheBytes = 4 << 20

// fastMaxDepth bounds the nesting of objects and arrays, schema included, far below
// encoding/json's own limit (which makes the stock reader fail) and far above what FerretDB
// lets a document hold.
const fastMaxDepth = 512

var fastSchemas struct {
	sync.RWMutex
	byText map[string]*fastSchema
	bytes  int
}

type fastElem struct {
	kind    elemType
	schema  *fastSchema // object
	items   []*fastElem // array
	subtype types.BinarySubtype
	options string // regex
}

// Scalar elems carry nothing but their type, so one of each serves every document.
var fastScalars = map[string]*fastElem{}

func init() {
	for _, kind := range []elemType{
		elemTypeDouble, elemTypeString, elemTypeObjectID, elemTypeBool, elemTypeDate,
		elemTypeNull, elemTypeInt, elemTypeTimestamp, elemTypeLong,
	} {
		fastScalars[`"`+string(kind)+`"`] = &fastElem{kind: kind}
	}
}

type fastReader struct {
	data  []byte
	pos   int
	depth int
}

// fastUnmarshal decodes data as stockUnmarshal does, or returns ok=false when it cannot be
// sure to.
func fastUnmarshal(data []byte) (*types.Document, bool) {
	r := &fastReader{data: data}
	if !r.literal(`{"$s":`) {
		return nil, false
	}

	sch, ok := r.cachedSchema()
	if !ok || sch.hasSchemaKey {
		return nil, false
	}

	// Top-level fields follow the schema, each after a comma, as Marshal writes them.
	doc, ok := r.fields(sch, true)
	if !ok || !r.expect('}') || r.pos != len(data) {
		return nil, false
	}

	return doc, true
}

// cachedSchema reads the schema at the reader's position, parsing it only if it is new.
func (r *fastReader) cachedSchema() (*fastSchema, bool) {
	end, ok := objectEnd(r.data, r.pos)
	if !ok {
		return nil, false
	}

	text := r.data[r.pos:end]

	fastSchemas.RLock()
	sch := fastSchemas.byText[string(text)]
	fastSchemas.RUnlock()

	if sch != nil {
		r.pos = end
		return sch, true
	}

	if sch, ok = r.schema(); !ok || r.pos != end {
		return nil, false
	}

	fastSchemas.Lock()
	if fastSchemas.bytes+len(text) <= fastSchemaCacheBytes {
		if fastSchemas.byText == nil {
			fastSchemas.byText = make(map[string]*fastSchema)
		}

		fastSchemas.byText[string(text)] = sch
		fastSchemas.bytes += len(text)
	}
	fastSchemas.Unlock()

	return sch, true
}

// objectEnd returns where the JSON object starting at start ends, without checking its syntax
// (the parser does that when the text is first seen).
func objectEnd(data []byte, start int) (int, bool) {
	depth := 0
	for i := start; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, data[start] == '{'
			}
		}
	}

	return 0, false
}

// open reads the byte opening an object or array and counts the nesting it starts.
func (r *fastReader) open(b byte) bool {
	if r.depth >= fastMaxDepth || !r.expect(b) {
		return false
	}

	r.depth++

	return true
}

// close reads the byte closing an object or array opened by open.
func (r *fastReader) close(b byte) bool {
	if !r.expect(b) {
		return false
	}

	r.depth--

	return true
}

// fields reads `"<key>":<value>` for each key of the schema, in order, separated by commas
// (after a leading comma too when `leadingComma`), into a document.
func (r *fastReader) fields(sch *fastSchema, leadingComma bool) (*types.Document, bool) {
	pairs := make([]any, 2*len(sch.keys))
	for i := range sch.keys {
		if (leadingComma || i > 0) && !r.expect(',') {
			return nil, false
		}

		if !r.key(sch.rawKeys[i]) {
			return nil, false
		}

		v, ok := r.value(sch.elems[i])
		if !ok {
			return nil, false
		}

		pairs[2*i] = sch.boxedKeys[i]
		pairs[2*i+1] = v
	}

	// The schema's keys are distinct, which NewDocument does not check and Set would.
	doc, err := types.NewDocument(pairs...)

	return doc, err == nil
}

func (r *fastReader) expect(b byte) bool {
	if r.pos < len(r.data) && r.data[r.pos] == b {
		r.pos++
		return true
	}

	return false
}

func (r *fastReader) literal(lit string) bool {
	end := r.pos + len(lit)
	if end > len(r.data) || string(r.data[r.pos:end]) != lit {
		return false
	}

	r.pos = end

	return true
}

// list reads comma-separated items up to `closer` (the opener already read), each by `item`,
// which tells whether it read one.
func (r *fastReader) list(closer byte, item func() bool) bool {
	for first := true; !r.close(closer); first = false {
		if (!first && !r.expect(',')) || !item() {
			return false
		}
	}

	return true
}

// key reads `"<key>":` and tells whether it is the expected key, byte for byte.
func (r *fastReader) key(raw []byte) bool {
	got, ok := r.rawString()
	return ok && bytes.Equal(got, raw) && r.expect(':')
}

// rawString reads a JSON string and returns it with its quotes, still escaped.
func (r *fastReader) rawString() ([]byte, bool) {
	start := r.pos
	if !r.expect('"') {
		return nil, false
	}

	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case '"':
			r.pos++
			return r.data[start:r.pos], true
		case '\\':
			r.pos += 2
		default:
			r.pos++
		}
	}

	return nil, false
}

// unquote decodes a raw JSON string as encoding/json does.
func unquote(raw []byte) (string, bool) {
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		// Escapes, control characters and anything beyond ASCII (whose validity encoding/json
		// checks) take the general decoder.
		if c < 0x20 || c == '\\' || c >= 0x80 {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", false
			}

			return s, true
		}
	}

	return string(inner), true
}

func (r *fastReader) string() (string, bool) {
	raw, ok := r.rawString()
	if !ok {
		return "", false
	}

	return unquote(raw)
}

// number reads a JSON number (RFC 8259 grammar) and returns its text.
func (r *fastReader) number() (string, bool) {
	d, i := r.data, r.pos
	digits := func() bool {
		from := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}

		return i > from
	}

	if i < len(d) && d[i] == '-' {
		i++
	}

	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits():
		return "", false
	}

	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			return "", false
		}
	}

	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}

		if !digits() {
			return "", false
		}
	}

	text := string(d[r.pos:i])
	r.pos = i

	return text, true
}

// schema reads `{}` or `{"p":{<key>:<elem>,...},"$k":[<key>,...]}` with the same keys in
// the same order in both, none repeated.
func (r *fastReader) schema() (*fastSchema, bool) {
	if !r.open('{') {
		return nil, false
	}

	sch := new(fastSchema)
	if r.close('}') {
		return sch, true
	}

	if !r.literal(`"p":`) || !r.open('{') {
		return nil, false
	}

	seen := make(map[string]struct{})
	parsed := r.list('}', func() bool {
		raw, ok := r.rawString()
		if !ok {
			return false
		}

		key, ok := unquote(raw)
		if _, repeated := seen[key]; !ok || repeated || !r.expect(':') {
			return false
		}

		seen[key] = struct{}{}

		e, ok := r.elem()
		if !ok {
			return false
		}

		// A copy: the schema may be kept, and raw points into the caller's buffer.
		sch.rawKeys = append(sch.rawKeys, bytes.Clone(raw))
		sch.keys = append(sch.keys, key)
		sch.boxedKeys = append(sch.boxedKeys, key)
		sch.elems = append(sch.elems, e)
		sch.hasSchemaKey = sch.hasSchemaKey || key == "$s"

		return true
	})
	if !parsed {
		return nil, false
	}

	if !r.literal(`,"$k":`) || !r.open('[') {
		return nil, false
	}

	for i, raw := range sch.rawKeys {
		if i > 0 && !r.expect(',') {
			return nil, false
		}

		got, ok := r.rawString()
		if !ok || !bytes.Equal(got, raw) {
			return nil, false
		}
	}

	if !r.close(']') || !r.close('}') {
		return nil, false
	}

	return sch, true
}

// elem reads `{"t":"<type>"}`, with `,"$s":<schema>` for an object, `,"i":[<elem>,...]` for an
// array, `,"s":<subtype>` for binData and `,"o":"<options>"` for a regex.
func (r *fastReader) elem() (*fastElem, bool) {
	if !r.open('{') || !r.literal(`"t":`) {
		return nil, false
	}

	kind, ok := r.rawString()
	if !ok {
		return nil, false
	}

	if scalar, found := fastScalars[string(kind)]; found {
		return scalar, r.close('}')
	}

	e := new(fastElem)
	switch string(kind) {
	case `"object"`:
		e.kind = elemTypeObject
		if !r.literal(`,"$s":`) {
			return nil, false
		}

		if e.schema, ok = r.schema(); !ok {
			return nil, false
		}
	case `"array"`:
		e.kind = elemTypeArray
		if !r.literal(`,"i":`) || !r.open('[') {
			return nil, false
		}

		e.items = []*fastElem{}
		parsed := r.list(']', func() bool {
			item, ok := r.elem()
			e.items = append(e.items, item)

			return ok
		})
		if !parsed {
			return nil, false
		}
	case `"binData"`:
		e.kind = elemTypeBinData
		text, ok := "", r.literal(`,"s":`)
		if ok {
			text, ok = r.number()
		}

		subtype, err := strconv.ParseUint(text, 10, 8)
		if !ok || err != nil {
			return nil, false
		}

		e.subtype = types.BinarySubtype(subtype)
	case `"regex"`:
		e.kind = elemTypeRegex
		if !r.literal(`,"o":`) {
			return nil, false
		}

		if e.options, ok = r.string(); !ok {
			return nil, false
		}
	default:
		return nil, false
	}

	return e, r.close('}')
}

// value reads one field's value as its elem says; null is null whatever the elem.
func (r *fastReader) value(e *fastElem) (any, bool) {
	if r.pos < len(r.data) && r.data[r.pos] == 'n' {
		return types.Null, r.literal("null")
	}

	switch e.kind {
	case elemTypeString:
		return r.string()
	case elemTypeObject:
		return r.document(e.schema)
	case elemTypeArray:
		return r.array(e.items)
	case elemTypeBool:
		if r.literal("true") {
			return true, true
		}

		return false, r.literal("false")
	case elemTypeObjectID:
		return r.objectID()
	case elemTypeBinData:
		return r.binary(e.subtype)
	case elemTypeRegex:
		pattern, ok := r.string()
		return types.Regex{Pattern: pattern, Options: e.options}, ok
	case elemTypeDouble, elemTypeInt, elemTypeLong, elemTypeDate, elemTypeTimestamp:
		return r.numeric(e.kind)
	}

	return nil, false
}

func (r *fastReader) numeric(kind elemType) (any, bool) {
	text, ok := r.number()
	if !ok {
		return nil, false
	}

	switch kind {
	case elemTypeDouble:
		f, err := strconv.ParseFloat(text, 64)
		return f, err == nil
	case elemTypeInt:
		i, err := strconv.ParseInt(text, 10, 32)
		return int32(i), err == nil
	case elemTypeLong:
		i, err := strconv.ParseInt(text, 10, 64)
		return i, err == nil
	case elemTypeDate:
		ms, err := strconv.ParseInt(text, 10, 64)
		return time.UnixMilli(ms), err == nil
	case elemTypeTimestamp:
		ts, err := strconv.ParseUint(text, 10, 64)
		return types.Timestamp(ts), err == nil
	}

	return nil, false
}

func (r *fastReader) objectID() (any, bool) {
	text, ok := r.string()
	if !ok {
		return nil, false
	}

	b, err := hex.DecodeString(text)
	if err != nil || len(b) != types.ObjectIDLen {
		return nil, false
	}

	var id types.ObjectID
	copy(id[:], b)

	return id, true
}

// binary decodes base64 the way encoding/json fills a []byte.
func (r *fastReader) binary(subtype types.BinarySubtype) (any, bool) {
	text, ok := r.string()
	if !ok {
		return nil, false
	}

	b := make([]byte, base64.StdEncoding.DecodedLen(len(text)))
	n, err := base64.StdEncoding.Decode(b, []byte(text))
	if err != nil {
		return nil, false
	}

	return types.Binary{B: b[:n], Subtype: subtype}, true
}

// document reads an embedded document: its fields in its schema's order, or `{}`, which the
// stock reader gives as an empty document whatever the schema says.
func (r *fastReader) document(sch *fastSchema) (any, bool) {
	if !r.open('{') {
		return nil, false
	}

	if r.close('}') {
		return new(types.Document), true
	}

	if sch == nil || len(sch.keys) == 0 {
		return nil, false
	}

	doc, ok := r.fields(sch, false)

	return doc, ok && r.close('}')
}

// array reads `[<value>,...]` with exactly one value per item elem.
func (r *fastReader) array(items []*fastElem) (any, bool) {
	if !r.open('[') {
		return nil, false
	}

	arr := types.MakeArray(len(items))
	for i, item := range items {
		if i > 0 && !r.expect(',') {
			return nil, false
		}

		v, ok := r.value(item)
		if !ok {
			return nil, false
		}

		arr.Append(v)
	}

	return arr, r.close(']')
}
