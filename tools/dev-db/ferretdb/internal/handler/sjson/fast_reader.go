// Added to FerretDB v1's storage format (package sjson) by tools/dev-db/ferretdb-build.ts, which
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
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/FerretDB/FerretDB/internal/types"
)

// fastMaxDepth bounds the nesting of objects and arrays, schema included, far below
// encoding/json's own limit (which makes the stock reader fail) and far above what FerretDB
// lets a document hold.
const fastMaxDepth = 512

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
