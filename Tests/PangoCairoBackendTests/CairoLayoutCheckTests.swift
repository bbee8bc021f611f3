import Testing

@testable import PangoCairoBackend

/// The Cairo installed writes the PDF the tagging pass reads: the check a tagged render makes
/// before drawing passes here (where it fails, every tagged render warns and writes untagged).
@Suite struct CairoLayoutCheckTests {
    @Test func thisCairoWritesWhatTheTaggingPassReads() {
        #expect(CairoLayoutCheck.problem == nil, "\(CairoLayoutCheck.problem ?? "")")
    }
}
