internal import PangoCairoBackend

extension Typesetter {
    /// Starts loading fonts before the document is read and parsed, so that fontconfig's
    /// start-up runs on Pango's fontconfig thread beside that work instead of before the first
    /// font query (``FontLibrary/startLoading()``). Rendering is the same with or without this
    /// call; a request that registers font folders skips it, since registering after the
    /// font map exists makes the map read fontconfig again.
    public static func startLoadingFonts(for options: RenderOptions) {
        guard options.themeRequest.fontFolders.isEmpty else { return }
        FontLibrary.startLoading()
    }
}
