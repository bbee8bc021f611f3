/// A Tokens Studio (Figma plugin) multi-set export in its legacy `value`/`type` form, as a team
/// following the pretendard theme's scale would export it: primitives in `global`, composite
/// typography styles in `typography` aliasing them (`{fontFamilies.pretendard}`, `{fontSize.17}`),
/// Figma-style weights ("Semi Bold"), % line heights and letter spacing, plus `$themes` and
/// `$metadata`. Embedded as a literal because the test target has no resources (Package.swift is
/// not ours to edit).
let tokensStudioExport = #"""
    {
      "global": {
        "fontFamilies": {
          "pretendard": { "value": "Pretendard", "type": "fontFamilies" },
          "mono": { "value": "JetBrains Mono", "type": "fontFamilies" }
        },
        "fontWeights": {
          "bold": { "value": "Bold", "type": "fontWeights" },
          "semibold": { "value": "Semi Bold", "type": "fontWeights" },
          "medium": { "value": "Medium", "type": "fontWeights" },
          "regular": { "value": "Regular", "type": "fontWeights" }
        },
        "fontSize": {
          "11": { "value": "11", "type": "fontSizes" },
          "13": { "value": "13", "type": "fontSizes" },
          "16": { "value": "16", "type": "fontSizes" },
          "17": { "value": "17", "type": "fontSizes" },
          "20": { "value": "20", "type": "fontSizes" },
          "22": { "value": "22", "type": "fontSizes" },
          "28": { "value": "28", "type": "fontSizes" },
          "34": { "value": "34", "type": "fontSizes" },
          "48": { "value": "3rem", "type": "fontSizes" }
        },
        "lineHeights": {
          "tight": { "value": "120%", "type": "lineHeights" },
          "normal": { "value": "150%", "type": "lineHeights" },
          "heading": { "value": "{lineHeights.tight}", "type": "lineHeights" }
        },
        "letterSpacing": {
          "tight": { "value": "-2%", "type": "letterSpacing" },
          "none": { "value": "0", "type": "letterSpacing" }
        },
        "typography": {
          "Display": {
            "value": {
              "fontFamily": "{fontFamilies.pretendard}", "fontWeight": "{fontWeights.bold}",
              "fontSize": "{fontSize.48}", "lineHeight": "{lineHeights.heading}",
              "letterSpacing": "{letterSpacing.tight}", "paragraphSpacing": "0", "textCase": "none"
            },
            "type": "typography"
          },
          "Large Title": {
            "value": {
              "fontFamily": "{fontFamilies.pretendard}", "fontWeight": "{fontWeights.bold}",
              "fontSize": "{fontSize.34}", "lineHeight": "44", "letterSpacing": "{letterSpacing.tight}"
            },
            "type": "typography"
          },
          "title-2": {
            "value": {
              "fontFamily": "{fontFamilies.pretendard}", "fontWeight": "{fontWeights.semibold}",
              "fontSize": "{fontSize.22}", "lineHeight": "30px", "letterSpacing": "{letterSpacing.none}"
            },
            "type": "typography",
            "description": "Section titles"
          },
          "body": {
            "regular": {
              "value": {
                "fontFamily": "{fontFamilies.pretendard}", "fontWeight": "{fontWeights.regular}",
                "fontSize": "{fontSize.17}", "lineHeight": "{lineHeights.normal}", "letterSpacing": "-0.5px"
              },
              "type": "typography"
            }
          },
          "caption2": {
            "value": {
              "fontFamily": "{fontFamilies.pretendard}", "fontWeight": "Medium Italic",
              "fontSize": "{fontSize.11}", "lineHeight": "AUTO", "letterSpacing": "0.01em"
            },
            "type": "typography"
          },
          "Overline": {
            "value": {
              "fontFamily": "{fontFamilies.pretendard}", "fontWeight": "{fontWeights.semibold}",
              "fontSize": "{fontSize.11}", "lineHeight": "{lineHeights.normal}", "letterSpacing": "8%", "textCase": \#
    "uppercase"
            },
            "type": "typography"
          },
          "Code": {
            "value": {
              "fontFamily": "{fontFamilies.mono}", "fontWeight": "{fontWeights.regular}",
              "fontSize": "{fontSize.13}", "lineHeight": "{lineHeights.missing}", "letterSpacing": "0"
            },
            "type": "typography"
          }
        }
      },
      "$themes": [],
      "$metadata": { "tokenSetOrder": ["global"] }
    }
    """#

/// A W3C DTCG 2025.10 file: group-level `$type`, dimension objects, unitless line heights,
/// alias chains, a `$ref` pointer and an alias cycle.
let dtcgTokens = #"""
    {
      "base": {
        "family": { "$type": "fontFamily", "$value": ["Inter", "Noto Sans CJK KR"] },
        "size": {
          "$type": "dimension",
          "body": { "$value": { "value": 16, "unit": "px" } },
          "heading": { "$value": { "value": 1.75, "unit": "rem" } },
          "alias": { "$value": "{base.size.body}" }
        },
        "weight": { "$type": "fontWeight", "$value": "semi-bold" },
        "loopA": { "$type": "dimension", "$value": "{base.loopB}" },
        "loopB": { "$type": "dimension", "$value": "{base.loopA}" }
      },
      "type": {
        "$type": "typography",
        "$description": "Typography inherits its type from this group.",
        "title": {
          "$value": {
            "fontFamily": "{base.family}", "fontSize": "{base.size.heading}", "fontWeight": 700,
            "letterSpacing": { "value": -0.02, "unit": "rem" }, "lineHeight": 1.2
          }
        },
        "body": {
          "$value": {
            "fontFamily": "{base.family}", "fontSize": "{base.size.alias}", "fontWeight": "{base.weight}",
            "letterSpacing": { "value": 0, "unit": "px" }, "lineHeight": 1.5
          }
        },
        "headline": {
          "$value": {
            "fontFamily": "Inter", "fontSize": { "$ref": "#/base/size/body/$value" }, "fontWeight": "bold",
            "letterSpacing": "0px", "lineHeight": { "value": 22, "unit": "px" }
          }
        },
        "caption": {
          "$value": {
            "fontFamily": "Inter", "fontWeight": 400,
            "letterSpacing": "0px", "lineHeight": 1.3, "fontStretch": "condensed"
          }
        },
        "footnote": { "$value": "{type.caption}" }
      }
    }
    """#
