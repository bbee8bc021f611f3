import Foundation
import TestSupport
import Testing
import Typesetter

/// A line may stand out into the margin by what its last character protrudes (a dash, a stop,
/// a comma: microtype's protrusion): that is no word wider than the measure, and is not warned
/// about; a word wider than the measure by more still is.
@Suite struct ProtrudingLineEndTests {
    /// The specimen's measure sample: at this measure in Title3 its third line ends in an em
    /// dash that stands past the measure, by less than the dash may protrude.
    static let sample = """
        Typography is the craft of giving language a durable visual form. A type scale names each role — \
        its size, weight, spacing and line height — so that titles, text and captions speak with one voice \
        on every page. 타이포그래피는 정보 전달의 기본입니다. 효과적인 전달을 위해 위계와 스타일이 필요하고, \
        그 위계는 타입 스케일로 표현됩니다.
        """

    @Test func aDashStandingIntoTheMarginIsNoOverwideWord() throws {
        let markdown = "::: {.title3 measure=327.6816}\n\(Self.sample)\n:::\n"
        let (pdf, report) = try Render.markdown(markdown, name: "protruding-dash")
        #expect(!report.diagnostics.contains { $0.message.contains("wider than") }, "\(report.diagnostics)")
        // The member this is about: a line of the sample ends in the dash.
        let lines = try PDFProbe.text(pdf).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains { $0.hasSuffix("—") && $0.count > 10 }, "\(lines)")
    }

    /// A word wider than the measure that ends in a dash or a stop is still warned about: what
    /// it protrudes is a fraction of one character.
    @Test(arguments: ["—", ".", ","])
    func anOverwideWordEndingInProtrudingPunctuationIsStillWarned(end: String) throws {
        let word = String(repeating: "x", count: 90) + end
        let (_, report) = try Render.markdown("Before \(word) after.\n", name: "protruding-overwide")
        #expect(report.diagnostics.contains { $0.message.contains("wider than the measure") }, "\(report.diagnostics)")
    }

    /// The default specimen sheet, whose measure sample this was, warns of no overwide word.
    @Test func theSpecimenWarnsOfNoOverwideWord() throws {
        let pdf = Render.folder + "/protruding-specimen.pdf"
        let report = try Typesetter.renderSpecimen(request: ThemeRequest(), options: SpecimenOptions(), to: pdf)
        #expect(!report.diagnostics.contains { $0.message.contains("wider than") }, "\(report.diagnostics)")
    }
}
