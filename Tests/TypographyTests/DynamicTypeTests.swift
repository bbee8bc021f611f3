import Testing

@testable import Typography

@Suite struct DynamicTypeTests {
    @Test func bodySizesMatchHIG() {
        #expect(DynamicType.size(of: .body, in: .xSmall) == 14)
        #expect(DynamicType.size(of: .body, in: .large) == 17)
        #expect(DynamicType.size(of: .body, in: .xxxLarge) == 23)
        #expect(DynamicType.size(of: .body, in: .accessibility5) == 53)
        #expect(DynamicType.leading(of: .body, in: .accessibility5) == 62)
    }

    @Test func largeTitleRow() {
        let row = SizeCategory.allCases.map { DynamicType.size(of: .largeTitle, in: $0) }
        #expect(row == [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60])
        let leading = SizeCategory.allCases.map { DynamicType.leading(of: .largeTitle, in: $0) }
        #expect(leading == [38, 39, 40, 41, 43, 46, 48, 52, 57, 61, 66, 70])
    }

    @Test func higOdditiesReproduced() {
        #expect(DynamicType.leading(of: .subheadline, in: .xxxLarge) == 28)
        #expect(DynamicType.size(of: .caption, in: .medium) == 11)
        #expect(DynamicType.leading(of: .caption, in: .large) == 16)
        #expect(DynamicType.size(of: .caption2, in: .xSmall) == 11)
        #expect(DynamicType.size(of: .footnote, in: .accessibility3) == 33)
    }

    @Test func everyRowHasTwelveColumns() {
        for style in DynamicTypeStyle.allCases {
            #expect(DynamicType.sizes[style]?.count == 12)
            #expect(DynamicType.leadings[style]?.count == 12)
        }
    }

    @Test func scalingARoleUsesItsStyleRatio() {
        let style = TextStyle(
            families: ["Inter"], size: 10.5, lineHeight: .absolute(14),
            tracking: .points(0.2), relativeTo: .body)
        let ax5 = style.scaled(to: .accessibility5)
        #expect(abs(ax5.size - 10.5 * 53 / 17) < 1e-9)
        #expect(ax5.lineHeight == .absolute(14 * (10.5 * 53 / 17) / 10.5))
        #expect(ax5.tracking == .points(0.2 * (10.5 * 53 / 17) / 10.5))
        let percent = TextStyle(families: ["Inter"], size: 12, tracking: .percentOfSize(-2), relativeTo: .caption)
        #expect(percent.scaled(to: .xSmall).tracking == .percentOfSize(-2))
        #expect(percent.scaled(to: .xSmall).size == 11)
    }

    @Test func fixedRolesDoNotScale() {
        let fixed = TextStyle(families: ["Inter"], size: 9, lineHeight: .absolute(12))
        #expect(fixed.scaled(to: .accessibility3) == fixed)
    }

    @Test func higThemeReproducesAppleTables() {
        for category in SizeCategory.allCases {
            let theme = Theme.hig.applying(sizeCategory: category)
            #expect(theme[.body].size == DynamicType.size(of: .body, in: category))
            #expect(theme[.body].lineHeight == .absolute(DynamicType.leading(of: .body, in: category)))
            #expect(theme[.largeTitle].size == DynamicType.size(of: .largeTitle, in: category))
            #expect(theme[.subTitle].lineHeight == .absolute(DynamicType.leading(of: .subheadline, in: category)))
        }
        #expect(Theme.hig.applying(sizeCategory: .large) == .hig)
        #expect(Theme.hig.applying(sizeCategory: .xSmall)[.caption2].size == 11)
    }

    @Test func categoryNames() {
        #expect(SizeCategory(name: "AX5") == .accessibility5)
        #expect(SizeCategory(name: "x-small") == .xSmall)
        #expect(DynamicTypeStyle(name: "Title 2") == .title2)
    }

    @Test func sfTrackingTable() {
        #expect(DynamicType.sfTracking(atSize: 17) == -0.43)
        #expect(DynamicType.sfTracking(atSize: 18) == nil)
    }
}

@Suite struct BoldTextTests {
    static let interWeights = FontWeight.named

    @Test func interMovesEveryRoleOneStep() {
        let (theme, warnings) = Theme.hig.applyingBoldText { _ in Self.interWeights }
        #expect(warnings.isEmpty)
        #expect(theme[.body].weight == .medium)
        #expect(theme[.headline].weight == .bold)
        #expect(theme[.display].weight == .extraBold)
        #expect(theme[.body].size == Theme.hig[.body].size)
    }

    @Test func regularAndBoldOnlyFamily() {
        var theme = Theme.pretendard
        for role in TextRole.allCases { theme.styles[role]!.families = ["X", "Noto Sans CJK KR"] }
        var asked: [String] = []
        let (bold, warnings) = theme.applyingBoldText { family in
            asked.append(family)
            return [.bold, .regular]
        }
        #expect(asked.prefix(2) == ["X", "Noto Sans CJK KR"])  // every family of the fallback list
        #expect(bold[.body].weight == .bold)  // 400 → 700
        #expect(bold[.caption].weight == .bold)  // 500 → 700
        #expect(bold[.title2].weight == .semibold)  // 600 already uses the Bold face (CSS Fonts 4 §5.2)
        #expect(bold[.title].weight == .bold)  // stays
        #expect(warnings.contains("Title: 'X' has no face heavier than Bold 700"))
        #expect(warnings.count == 5)  // Display, LargeTitle, Title, Title2, SubTitle
    }

    @Test func unknownFamilyWarns() {
        let (theme, warnings) = Theme.default.applyingBoldText { _ in [] }
        #expect(theme.styles == Theme.default.styles)
        #expect(warnings.count == 10)
        #expect(warnings[0] == "Display: no faces known for 'Inter'; weight unchanged")
    }
}

@Suite struct FontSwapTests {
    @Test func pointsAdjustment() {
        let swapped = Theme.hig.swappingFamily(to: "Nanum Gothic", sizeAdjust: .points(-2))
        #expect(swapped[.body].families == ["Nanum Gothic", "Noto Sans CJK KR"])
        #expect(swapped[.body].size == 15)
        #expect(swapped[.body].lineHeight == .absolute(22 * 15 / 17))
        #expect(swapped[.body].tracking == .points(-0.43 * 15 / 17))
        #expect(swapped[.display].tracking == .percentOfSize(1.2))
        #expect(swapped.families["sans"] == ["Nanum Gothic", "Noto Sans CJK KR"])
        #expect(swapped.monospaceFamilies == Theme.hig.monospaceFamilies)
    }

    @Test func xHeightAdjustment() {
        // Inter x-height 0.546 em → a face with 0.5 em: sizes grow by 0.546 / 0.5 = 1.092.
        let swapped = Theme.default.swappingFamily(
            to: "Other", sizeAdjust: .xHeight(originalRatio: 0.546, newRatio: 0.5))
        #expect(abs(swapped[.body].size - 10.5 * 1.092) < 1e-9)
        #expect(swapped[.body].lineHeight == .multiple(1.3))
        #expect(swapped[.body].families == ["Other", "Noto Sans CJK KR"])
    }

    @Test func noAdjustmentKeepsSizesAndDeduplicates() {
        let swapped = Theme.pretendard.swappingFamily(to: "Inter", sizeAdjust: nil)
        #expect(swapped[.body].families == ["Inter", "Noto Sans CJK KR"])
        #expect(swapped[.body].size == 16)
    }

    @Test func themeRecordedAdjustment() {
        var theme = Theme.default
        theme.sizeAdjustments["Nanum Gothic"] = .points(1)
        #expect(theme.swappingFamily(to: "Nanum Gothic")[.body].size == 11.5)
        #expect(theme.swappingFamily(to: "Other")[.body].size == 10.5)
    }

    @Test func sizeAdjustArithmetic() {
        #expect(SizeAdjust.points(-2).apply(to: 17) == 15)
        #expect(SizeAdjust.points(-20).apply(to: 17) == 1)
        #expect(SizeAdjust.xHeight(originalRatio: 0.5, newRatio: 0.25).apply(to: 10) == 20)
    }

    @Test func familyNames() {
        #expect(
            Theme.pretendard.familyNames == [
                "Pretendard", "Inter", "Noto Sans CJK KR", "DejaVu Sans Mono", "Noto Sans Mono CJK KR",
            ])
    }
}
