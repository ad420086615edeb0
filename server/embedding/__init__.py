"""Text to vectors: `embedder.Embedder` (fastembed over a local ONNX model folder, no network),
`protocol.TextEmbedder` (what the rest of the server asks of an embedder), and `provision/`
(making that folder exist: reuse, adopt, download or build offline)."""
