// Package internal holds the packages the engine stands on (key layout,
// expressions, PartiQL, storage) and, in its own tests, the rules of the
// whole tree: layers_test.go says what each folder may never import, and
// texts_test.go that no message text is written in two places.
package internal
