extension MathLayout {
    /// Superscript and subscript beside the nucleus (Appendix G, rules 18a–f, with the MATH
    /// table's superscript and subscript constants). The nucleus of `primes` (`f'_n`, whose
    /// primes are TeX's superscript `f^{\prime}_n`, The TeXbook ch. 16) has its subscript
    /// under it, where TeX sets a subscript below a superscript, not after it.
    func scriptsBox(
        _ nucleus: MathBox, superscript: [MathNode]?, subscript subscriptNodes: [MathNode]?, _ style: MathStyle,
        operatorCharacter: Bool, primes: Bool = false
    ) -> MathBox {
        let superscriptBox = superscript.map { layoutList($0, style: style.superscript) }
        let subscriptBox = subscriptNodes.map { layoutList($0, style: style.subscript) }
        var shiftUp = 0.0
        var shiftDown = 0.0
        if !nucleus.isCharacter {
            // The drops at the nucleus's size, as LuaTeX and MathML Core read the MATH table.
            shiftUp = nucleus.height - constant(.superscriptBaselineDropMax, style)
            shiftDown = nucleus.depth + constant(.subscriptBaselineDropMin, style)
        }
        if let superscriptBox {
            let standard = constant(style.cramped ? .superscriptShiftUpCramped : .superscriptShiftUp, style)
            shiftUp = max(shiftUp, standard, superscriptBox.depth + constant(.superscriptBottomMin, style))
        }
        if let subscriptBox {
            shiftDown = max(shiftDown, constant(.subscriptShiftDown, style))
            if superscriptBox == nil {
                shiftDown = max(shiftDown, subscriptBox.height - constant(.subscriptTopMax, style))
            }
        }
        if let superscriptBox, let subscriptBox {
            let gap = (shiftUp - superscriptBox.depth) - (subscriptBox.height - shiftDown)
            let minimum = constant(.subSuperscriptGapMin, style)
            if gap < minimum {
                shiftDown += minimum - gap
                let room = constant(.superscriptBottomMaxWithSubscript, style) - (shiftUp - superscriptBox.depth)
                if room > 0 {
                    shiftUp += room
                    shiftDown -= room
                }
            }
        }
        var box = MathBox()
        box.append(nucleus)
        let italics = nucleus.italicsCorrection
        let after = constant(.spaceAfterScript, style)
        var end = nucleus.width
        if let superscriptBox {
            let x = nucleus.width + (operatorCharacter ? 0 : italics)
            box.place(superscriptBox, x: x, y: shiftUp)
            end = max(end, x + superscriptBox.width)
        }
        if let subscriptBox {
            // An operator's subscript tucks under it by its italics correction (OpenType MATH,
            // MathItalicsCorrectionInfo).
            let x = primes ? 0 : nucleus.width - (operatorCharacter ? italics : 0)
            box.place(subscriptBox, x: x, y: -shiftDown)
            end = max(end, x + subscriptBox.width)
        }
        box.width = end + after
        box.italicsCorrection = 0
        return box
    }

    /// Limits above and below a large operator (Appendix G, rule 13a, with the MATH table's
    /// limit constants); the italics correction shifts them apart.
    func limitsBox(
        _ nucleus: MathBox, superscript: [MathNode]?, subscript subscriptNodes: [MathNode]?, _ style: MathStyle
    )
        -> MathBox
    {
        let superscriptBox = superscript.map { layoutList($0, style: style.superscript) }
        let subscriptBox = subscriptNodes.map { layoutList($0, style: style.subscript) }
        let width = max(nucleus.width, superscriptBox?.width ?? 0, subscriptBox?.width ?? 0)
        let italics = nucleus.italicsCorrection
        var box = MathBox()
        box.place(nucleus, x: (width - nucleus.width) / 2, y: 0)
        if let superscriptBox {
            let gap = max(
                constant(.upperLimitGapMin, style), constant(.upperLimitBaselineRiseMin, style) - superscriptBox.depth)
            box.place(
                superscriptBox, x: (width - superscriptBox.width + italics) / 2,
                y: nucleus.height + gap + superscriptBox.depth)
        }
        if let subscriptBox {
            let gap = max(
                constant(.lowerLimitGapMin, style), constant(.lowerLimitBaselineDropMin, style) - subscriptBox.height)
            box.place(
                subscriptBox, x: (width - subscriptBox.width - italics) / 2,
                y: -(nucleus.depth + gap + subscriptBox.height))
        }
        box.width = width
        return box
    }

    /// A fraction or a stack (Appendix G, rule 15, with the MATH table's fraction and stack
    /// constants), centred on the axis, with `\nulldelimiterspace` (0.12 em) on each side or
    /// delimiters of TeX's delim1/delim2 sizes (2.39 em in display style, 1.01 em otherwise).
    func fractionBox(
        numerator: [MathNode], denominator: [MathNode], rule: Bool, style: MathStyle, left: MathDelimiter,
        right: MathDelimiter
    ) -> MathBox {
        let top = layoutList(numerator, style: style.numerator)
        let bottom = layoutList(denominator, style: style.denominator)
        let display = style.level == .display
        let axisHeight = axis(style)
        var shiftUp: Double
        var shiftDown: Double
        let thickness = rule ? constant(.fractionRuleThickness, style) : 0
        if rule {
            shiftUp = constant(display ? .fractionNumeratorDisplayStyleShiftUp : .fractionNumeratorShiftUp, style)
            shiftDown = constant(
                display ? .fractionDenominatorDisplayStyleShiftDown : .fractionDenominatorShiftDown, style)
            let numeratorGap = constant(display ? .fractionNumDisplayStyleGapMin : .fractionNumeratorGapMin, style)
            let denominatorGap = constant(
                display ? .fractionDenomDisplayStyleGapMin : .fractionDenominatorGapMin, style)
            let aboveRule = (shiftUp - top.depth) - (axisHeight + thickness / 2)
            if aboveRule < numeratorGap { shiftUp += numeratorGap - aboveRule }
            let belowRule = (axisHeight - thickness / 2) - (bottom.height - shiftDown)
            if belowRule < denominatorGap { shiftDown += denominatorGap - belowRule }
        } else {
            shiftUp = constant(display ? .stackTopDisplayStyleShiftUp : .stackTopShiftUp, style)
            shiftDown = constant(display ? .stackBottomDisplayStyleShiftDown : .stackBottomShiftDown, style)
            let minimum = constant(display ? .stackDisplayStyleGapMin : .stackGapMin, style)
            let gap = (shiftUp - top.depth) - (bottom.height - shiftDown)
            if gap < minimum {
                shiftUp += (minimum - gap) / 2
                shiftDown += (minimum - gap) / 2
            }
        }
        let width = max(top.width, bottom.width)
        var stack = MathBox()
        stack.place(top, x: (width - top.width) / 2, y: shiftUp)
        stack.place(bottom, x: (width - bottom.width) / 2, y: -shiftDown)
        if rule {
            stack.items.append(
                .rule(x: 0, y: axisHeight - thickness / 2, width: width, height: thickness, color: nil))
        }
        stack.width = width
        let delimiterSize = (display ? 2.39 : 1.01) * em(style)
        var box = MathBox()
        box.append(delimiterBox(left, size: delimiterSize, style))
        box.append(stack)
        box.append(delimiterBox(right, size: delimiterSize, style))
        box.italicsCorrection = 0
        return box
    }

    /// A radical (Appendix G, rule 11, with the MATH table's radical constants): the radical
    /// sign at least as tall as the radicand and its clearance, its rule over the radicand, the
    /// degree raised by RadicalDegreeBottomRaisePercent of the sign's height.
    func radicalBox(degree: [MathNode]?, radicand: [MathNode], _ style: MathStyle) -> MathBox {
        let body = layoutList(radicand, style: style.crampedStyle)
        let thickness = constant(.radicalRuleThickness, style)
        var gap = constant(style.level == .display ? .radicalDisplayStyleVerticalGap : .radicalVerticalGap, style)
        let needed = body.height + body.depth + gap + thickness
        let sign = stretchedGlyph("\u{221A}", size: needed, vertical: true, style)
        let signTotal = sign.height + sign.depth
        if signTotal > needed { gap += (signTotal - needed) / 2 }
        // The sign's top meets the rule's top.
        let ruleBottom = body.height + gap
        let signShift = ruleBottom + thickness - sign.height
        var box = MathBox()
        var x = 0.0
        if let degree {
            let degreeBox = layoutList(degree, style: MathStyle(.scriptScript))
            let raise = font.constant(.radicalDegreeBottomRaisePercent) / 100 * signTotal
            let before = constant(.radicalKernBeforeDegree, style)
            box.place(degreeBox, x: before, y: signShift - sign.depth + raise + degreeBox.depth)
            x = max(0, before + degreeBox.width + constant(.radicalKernAfterDegree, style))
        }
        box.place(sign, x: x, y: signShift)
        x += sign.width
        box.items.append(.rule(x: x, y: ruleBottom, width: body.width, height: thickness, color: nil))
        box.place(body, x: x, y: 0)
        box.height = max(box.height, ruleBottom + thickness + constant(.radicalExtraAscender, style))
        box.width = x + body.width
        return box
    }

    /// An accent over or under its base (Appendix G, rule 12, with AccentBaseHeight and the
    /// glyphs' top accent attachments); a stretchy accent (`\widehat`, `\overrightarrow`)
    /// takes the widest size variant no wider than the base, or its assembly of parts made as
    /// wide as the base when every variant is narrower (an arrow over a long base,
    /// ``wideAccentGlyph(_:size:_:)``), any other (`\hat`) keeps its glyph, as unicode-math's
    /// fixed accents do.
    func accentBox(_ accent: String, base: [MathNode], stretchy: Bool, bottom: Bool, _ style: MathStyle) -> MathBox {
        let baseBox = layoutList(base, style: style.crampedStyle)
        guard let scalar = accent.unicodeScalars.first, let nominal = font.glyph(for: scalar) else {
            return baseBox
        }
        var accentGlyph = glyphBox(nominal, style)
        if stretchy {
            let limit = baseBox.width / scale(style)
            let variants = font.variants(of: nominal, vertical: false)
            if let glyph = variants.last(where: { $0.advance <= limit * 1.05 })?.glyph {
                accentGlyph = glyphBox(glyph, style)
            }
            let parts = font.assembly(of: nominal, vertical: false)
            if accentGlyph.width < baseBox.width, variants.allSatisfy({ $0.advance <= limit }),
                parts.contains(where: \.isExtender)
            {
                accentGlyph = assemblyBox(parts, length: limit, vertical: false, style)
            }
        }
        if base.isEmpty {
            // An accent over nothing (`\hat{}`) stands alone, as MathJax and Typst set it: its
            // spacing form (ˆ for the combining circumflex), or the accent given room of its own;
            // over TeX's empty box it would be a formula of no width, drawn over the text beside it.
            if let spacing = Self.spacingAccents[scalar], let glyph = font.glyph(for: spacing) {
                return glyphBox(glyph, style)
            }
            var box = MathBox()
            let width = max(accentGlyph.width, em(style) / 2)
            // Its attachment point (the middle of a combining mark's ink, left of its origin)
            // over the middle of its room.
            box.place(accentGlyph, x: width / 2 - (accentGlyph.accentAttachment ?? accentGlyph.width / 2), y: 0)
            box.width = width
            return box
        }
        let baseAttachment =
            baseBox.isCharacter ? (baseBox.accentAttachment ?? baseBox.width / 2) : baseBox.width / 2
        let accentAttachment = accentGlyph.accentAttachment ?? accentGlyph.width / 2
        var box = MathBox()
        box.place(baseBox, x: 0, y: 0)
        if bottom {
            box.place(accentGlyph, x: baseAttachment - accentAttachment, y: -baseBox.depth)
        } else {
            let shift = baseBox.height - min(baseBox.height, constant(.accentBaseHeight, style))
            box.place(accentGlyph, x: baseAttachment - accentAttachment, y: shift)
        }
        box.width = baseBox.width
        box.italicsCorrection = baseBox.italicsCorrection
        return box
    }

    /// The spacing form of each combining accent a command draws (Unicode's Spacing Modifier
    /// Letters and Latin-1 forms): set for an accent over nothing.
    static let spacingAccents: [Unicode.Scalar: Unicode.Scalar] = [
        "\u{0300}": "\u{0060}", "\u{0301}": "\u{00B4}", "\u{0302}": "\u{02C6}", "\u{0303}": "\u{02DC}",
        "\u{0304}": "\u{00AF}", "\u{0305}": "\u{00AF}", "\u{0306}": "\u{02D8}", "\u{0307}": "\u{02D9}",
        "\u{0308}": "\u{00A8}", "\u{030A}": "\u{02DA}", "\u{030C}": "\u{02C7}",
    ]

    /// `\overline` and `\underline` (Appendix G, rules 9 and 10, with the MATH table's overbar
    /// and underbar constants).
    func barBox(over: Bool, base: [MathNode], _ style: MathStyle) -> MathBox {
        let baseBox = layoutList(base, style: over ? style.crampedStyle : style)
        var box = MathBox()
        box.place(baseBox, x: 0, y: 0)
        if over {
            let thickness = constant(.overbarRuleThickness, style)
            let y = baseBox.height + constant(.overbarVerticalGap, style)
            box.items.append(.rule(x: 0, y: y, width: baseBox.width, height: thickness, color: nil))
            box.height = y + thickness + constant(.overbarExtraAscender, style)
        } else {
            let thickness = constant(.underbarRuleThickness, style)
            let y = -(baseBox.depth + constant(.underbarVerticalGap, style) + thickness)
            box.items.append(.rule(x: 0, y: y, width: baseBox.width, height: thickness, color: nil))
            box.depth = -y + constant(.underbarExtraDescender, style)
        }
        box.width = baseBox.width
        return box
    }

    /// `\boxed`: the base in display style (amsmath sets `\fbox{$\displaystyle …$}`), the
    /// frame's rules 0.04 em thick and 0.3 em from the base's ink on each side (LaTeX's
    /// `\fboxrule` 0.4 pt and `\fboxsep` 3 pt at 10 pt). `\colorbox` fills the same box and
    /// draws no rules; `\fcolorbox` does both. The frame's box is its outer edge.
    func framedBox(_ base: [MathNode], frame: MathFrame, _ style: MathStyle) -> MathBox {
        let inner = layoutList(base, style: MathStyle(.display, cramped: style.cramped))
        let em = em(style)
        let rule = 0.04 * em
        let separation = 0.3 * em
        let width = inner.width + 2 * (separation + rule)
        let top = inner.height + separation
        let bottom = -(inner.depth + separation)
        let height = top - bottom + 2 * rule
        var box = MathBox()
        if let fill = frame.fill {
            box.items.append(.rule(x: 0, y: bottom - rule, width: width, height: height, color: colors(fill)))
        }
        box.place(inner, x: rule + separation, y: 0)
        if frame.ruled {
            let color = frame.ruleColor.flatMap(colors)
            box.items.append(.rule(x: 0, y: top, width: width, height: rule, color: color))
            box.items.append(.rule(x: 0, y: bottom - rule, width: width, height: rule, color: color))
            box.items.append(.rule(x: 0, y: bottom - rule, width: rule, height: height, color: color))
            box.items.append(.rule(x: width - rule, y: bottom - rule, width: rule, height: height, color: color))
        }
        box.width = width
        box.height = top + rule
        box.depth = -(bottom - rule)
        box.isCharacter = false
        return box
    }

    /// `\phantom` and its kin (``MathPhantom``): the base laid out in the current style, its
    /// box keeping the extents asked for, its glyphs drawn only when asked (LaTeX's `\phantom`,
    /// `\hphantom`, `\vphantom` and `\smash`; mathtools' `\mathrlap`, `\mathllap`,
    /// `\mathclap`).
    func phantomBox(_ base: [MathNode], _ phantom: MathPhantom, _ style: MathStyle) -> MathBox {
        let inner = layoutList(base, style: style)
        var box = MathBox()
        if phantom.drawn {
            var x = 0.0
            if !phantom.keepsWidth {
                switch phantom.overlap {
                case .left: x = 0
                case .right: x = -inner.width
                case .center: x = -inner.width / 2
                }
            }
            box.items = inner.items.map { $0.moved(x: x, y: 0) }
        }
        box.width = phantom.keepsWidth ? inner.width : 0
        box.height = phantom.keepsHeight ? inner.height : 0
        box.depth = phantom.keepsDepth ? inner.depth : 0
        return box
    }

    /// `\cancel` and its kin: the base with strokes from corner to corner of its box, 0.04 em
    /// wide (the rule width of `\fbox`), reaching 0.1 em past the box on each side as the
    /// `cancel` package's strokes do.
    func cancelledBox(_ base: [MathNode], _ cancel: MathCancel, _ style: MathStyle) -> MathBox {
        var box = layoutList(base, style: style)
        let em = em(style)
        let width = 0.04 * em
        let overhang = 0.1 * em
        let (left, right) = (-overhang / 2, box.width + overhang / 2)
        let (bottom, top) = (-box.depth - overhang / 2, box.height + overhang / 2)
        if cancel != .down {
            box.items.append(.stroke(x: left, y: bottom, toX: right, toY: top, width: width, color: nil))
        }
        if cancel != .up {
            box.items.append(.stroke(x: left, y: top, toX: right, toY: bottom, width: width, color: nil))
        }
        box.isCharacter = false
        box.italicsCorrection = 0
        return box
    }

    /// The arrow of `\xrightarrow` and its kin, as amsmath's `\ext@arrow 0359` makes it: each
    /// label in its script style, padded by 5 mu before it and 9 mu after it, and the arrow
    /// stretched (its size variants, then its assembly of parts) to the wider of them, never
    /// shorter than its own glyph. The labels are the atom's limits.
    func extensibleArrowBox(_ arrow: String, above: [MathNode]?, below: [MathNode]?, _ style: MathStyle) -> MathBox {
        var width = 0.0
        for (label, labelStyle) in [(above, style.superscript), (below, style.subscript)] {
            guard let label else { continue }
            width = max(width, layoutList(label, style: labelStyle).width + 14 * em(labelStyle) / 18)
        }
        var box = stretchedGlyph(arrow, size: width, vertical: false, style)
        box.isCharacter = false
        box.italicsCorrection = 0
        return box
    }

    /// A horizontal brace over or under its base, stretched to the base's width, set as
    /// unicode-math sets `\overbrace` and `\underbrace` under LuaTeX: a wide accent on the base
    /// set cramped (`\Umathaccent` and `\Umathaccent bottom`, as LuaTeX's `make_math_accent`),
    /// the whole a large operator with `\limits`. Over the base, the brace stands on a line
    /// AccentBaseHeight below the base's top (the base's baseline when it is lower), as any top
    /// accent; under it, the brace's top touches the base's bottom, with no gap — LuaTeX stacks
    /// a bottom accent right below its base. The brace's height and depth count from zero, as a
    /// TeX character's box does (a brace drawn wholly above or below its baseline adds no room
    /// on the other side). A limit then goes above or below by the MATH table's limit gaps
    /// (``limitsBox(_:superscript:subscript:_:)``). The box is the base's width, as LuaTeX's
    /// (the accent's own width counts for nothing), unless the brace's nominal glyph is wider
    /// than a short base: then the box holds the brace, the base centred under or over it.
    func braceBox(_ character: String, over: Bool, base: [MathNode], _ style: MathStyle) -> MathBox {
        let baseBox = layoutList(base, style: style.crampedStyle)
        let brace = wideAccentGlyph(character, size: baseBox.width, style)
        let (braceHeight, braceDepth) = (max(0, brace.height), max(0, brace.depth))
        let width = max(baseBox.width, brace.width)
        var box = MathBox()
        box.place(baseBox, x: (width - baseBox.width) / 2, y: 0)
        let x = (width - brace.width) / 2
        if over {
            let bottom = baseBox.height - min(baseBox.height, constant(.accentBaseHeight, style))
            box.place(brace, x: x, y: bottom + braceDepth)
        } else {
            box.place(brace, x: x, y: -(baseBox.depth + braceHeight))
        }
        box.width = width
        return box
    }
}
