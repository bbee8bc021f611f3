// PangoCairoBackend
