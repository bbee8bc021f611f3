internal import CGio
import Foundation

/// Waits for files to change, through GLib's `GFileMonitor` (inotify on Linux). Each watched
/// path is monitored by name, so a file an editor replaces (write to a temporary file, rename
/// over) keeps being watched; a folder is watched for files added, removed or changed in it.
/// Not thread-safe: use one watcher from one thread.
public final class FileWatcher {
    private let context: OpaquePointer
    private var monitors: [UnsafeMutablePointer<GFileMonitor>] = []
    private let box = ChangeBox()

    /// Collects the paths GLib reports (filled from the monitor callback, on this thread).
    final class ChangeBox { var changed: [String] = [] }

    /// Watches `paths` (files or folders; missing ones are watched for their creation).
    public init(paths: [String]) {
        context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        for path in Set(paths).sorted() {
            let file = g_file_new_for_path(path)
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            var isDirectory: ObjCBool = false
            let folder =
                FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            var error: UnsafeMutablePointer<GError>?
            let monitor =
                folder
                ? g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, &error)
                : g_file_monitor_file(file, G_FILE_MONITOR_WATCH_MOVES, nil, &error)
            if let error { g_error_free(error) }
            guard let monitor else { continue }
            let callback:
                @convention(c) (
                    UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, GFileMonitorEvent,
                    UnsafeMutableRawPointer?
                ) -> Void = {
                    _, file, otherFile, event, data in
                    // A save by rename (write a temporary file, rename it over the watched one)
                    // reports the temporary name as `file` and the watched name as `otherFile`.
                    guard let data, let file = event == G_FILE_MONITOR_EVENT_RENAMED ? (otherFile ?? file) : file else {
                        return
                    }
                    // Attribute-only changes (touch without writing, permissions) do not re-render.
                    guard event != G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED, event != G_FILE_MONITOR_EVENT_PRE_UNMOUNT
                    else { return }
                    let box = Unmanaged<ChangeBox>.fromOpaque(data).takeUnretainedValue()
                    if let cPath = g_file_get_path(OpaquePointer(file)) {
                        box.changed.append(String(cString: cPath))
                        g_free(cPath)
                    }
                }
            g_signal_connect_data(
                UnsafeMutableRawPointer(monitor), "changed", unsafeBitCast(callback, to: GCallback.self),
                Unmanaged.passUnretained(box).toOpaque(), nil, GConnectFlags(rawValue: 0))
            monitors.append(monitor)
        }
    }

    deinit {
        for monitor in monitors {
            g_file_monitor_cancel(monitor)
            g_object_unref(UnsafeMutableRawPointer(monitor))
        }
        g_main_context_unref(context)
    }

    /// How many paths are being watched (a path GLib could not monitor is skipped).
    public var count: Int { monitors.count }

    /// Blocks until something changes, then collects further changes for `settle` seconds (an
    /// editor's save is often several events), and returns the changed paths, each once, in
    /// order. Returns an empty list when `timeout` seconds pass without a change.
    public func waitForChanges(settle: Double = 0.1, timeout: Double? = nil) -> [String] {
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        box.changed = []
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while box.changed.isEmpty {
            if let deadline, Date() >= deadline { return [] }
            // Wake at least every 0.2 s to check the deadline.
            let source = g_timeout_source_new(200)!
            g_source_set_callback(source, { _ in 0 }, nil, nil)
            g_source_attach(source, context)
            g_main_context_iteration(context, 1)
            g_source_destroy(source)
            g_source_unref(source)
        }
        let settleEnd = Date().addingTimeInterval(settle)
        while Date() < settleEnd {
            if g_main_context_iteration(context, 0) == 0 { usleep(10_000) }
        }
        var seen = Set<String>()
        return box.changed.filter { seen.insert($0).inserted }
    }
}
