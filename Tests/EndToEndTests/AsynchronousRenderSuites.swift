import Testing

/// The suites that render through the asynchronous API, which shares one process-wide set of
/// render slots (`RenderSlots`, one per processor): they run one suite at a time, so that a
/// long render of one suite (`AsyncRenderTests`' 500-page render, say) never holds the slots
/// while another suite times its renders (in CI it once made `ConcurrentRenderTests`' twenty
/// renders one after another take 22.9 s against 1.7 s).
@Suite(.serialized) enum AsynchronousRenderSuites {}
