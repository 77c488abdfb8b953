package htmltext

// An Extractor turns an HTML page into its [Text]. [Options] is one: its
// ExtractText method is [Extract] with those options. Adapters for other
// main-content extractors, in modules of their own so that this package keeps
// its dependencies, are others; a crawler or an evaluation that takes an
// Extractor can swap them.
//
// Implementations must not keep or modify page, and must be safe for
// concurrent use when their documentation says so; Options is.
type Extractor interface {
	ExtractText(page []byte) (Text, error)
}

// ExtractText returns Extract(page, o). It makes Options an [Extractor].
func (o Options) ExtractText(page []byte) (Text, error) { return Extract(page, o) }
