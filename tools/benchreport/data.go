package main

import (
	"embed"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"text/template"

	"github.com/BurntSushi/toml"
)

// What the report says beside the numbers is data (data/*.toml), each file
// decoded into its Go type and checked against the schema that type's tags
// give as the program starts.

//go:embed data/*.toml
var dataFS embed.FS

// mustLoad is data/<file> decoded and checked by parseData: a data file
// that fails its schema stops the program as it starts.
func mustLoad[T any](file string, check func(*T) error) T {
	v, err := parseData(dataText(file), check)
	if err != nil {
		panic("benchreport: data/" + file + ": " + err.Error())
	}
	return v
}

// dataText is the text of data/<file>.
func dataText(file string) string {
	b, err := dataFS.ReadFile("data/" + file)
	if err != nil {
		panic("benchreport: " + err.Error())
	}
	return string(b)
}

// parseData decodes a data file's text and checks it against the schema
// of T (decodeTOML), then with check, if any, for what the tags cannot say.
func parseData[T any](text string, check func(*T) error) (T, error) {
	var v T
	if err := decodeTOML(text, &v); err != nil || check == nil {
		return v, err
	}
	return v, check(&v)
}

// decodeTOML decodes a data file into v and checks it against the schema
// v's type gives: a key v does not name is an error, and so is a field
// that fails its tag's options (checkField).
func decodeTOML(text string, v any) error {
	md, err := toml.Decode(text, v)
	if err != nil {
		return err
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		return fmt.Errorf("unknown keys %v", keys)
	}
	return checkSchema(reflect.ValueOf(v), "")
}

// checkSchema checks the required and oneof fields of every struct within
// v, a value decoded at key path at.
func checkSchema(v reflect.Value, at string) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return checkSchema(v.Elem(), at)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			name, opts, _ := strings.Cut(v.Type().Field(i).Tag.Get("toml"), ",")
			f := v.Field(i)
			if err := checkField(f, opts); err != nil {
				return fmt.Errorf("%s%s: %w", at, name, err)
			}
			if err := checkSchema(f, at+name+"."); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := checkSchema(v.Index(i), fmt.Sprintf("%s%d.", at, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if err := checkSchema(v.MapIndex(k), fmt.Sprintf("%s%v.", at, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkField checks a field against its tag's options: required (not
// empty), oneof=a|b (one of those values) and, when not empty, ref (a
// benchmark, checkRef), label (a label's text/template, which parses with
// labelFuncs), heading (a name of data/headings.toml) and bound (a
// target's bound).
func checkField(f reflect.Value, opts string) error {
	s := fmt.Sprint(f)
	empty := f.IsZero() || ((f.Kind() == reflect.Slice || f.Kind() == reflect.Map) && f.Len() == 0)
	for _, opt := range strings.Split(opts, ",") {
		var err error
		oneof, isOneof := strings.CutPrefix(opt, "oneof=")
		switch {
		case opt == "required" && empty:
			err = errors.New("missing")
		case isOneof && !slices.Contains(strings.Split(oneof, "|"), s):
			err = fmt.Errorf("%q is not one of %s", s, oneof)
		case empty:
		case opt == "ref":
			err = checkRef(s)
		case opt == "label":
			_, err = template.New("").Funcs(labelFuncs(nil)).Parse(s)
		case opt == "heading" && headings[s] == "":
			err = fmt.Errorf("unknown heading %q", s)
		case opt == "bound":
			_, _, err = bound(s)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
