// Package layering holds only a test: it checks that tanknet's packages depend on each other
// in the one direction docs/ARCHITECTURE.md draws. (render/e2e checks that nothing headless pulls in
// Ebitengine.)
//
// Package layering has no code to import; do not add any.
package layering
