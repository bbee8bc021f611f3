internal import CPangoCairo

/// An object kept as a Cairo surface's user data: made the first time a drawing asks for it,
/// released when the surface is destroyed (`cairo_surface_set_user_data`).
enum SurfaceData {
    /// The object of `surface` under `key`, made by `make` when it has none yet.
    static func attached<Object: AnyObject>(
        to surface: OpaquePointer, key: UnsafeMutablePointer<cairo_user_data_key_t>, make: () -> Object
    ) -> Object {
        if let data = cairo_surface_get_user_data(surface, key) {
            return Unmanaged<Object>.fromOpaque(data).takeUnretainedValue()
        }
        let object = make()
        let box = Unmanaged.passRetained(object).toOpaque()
        let status = cairo_surface_set_user_data(surface, key, box) { data in
            // The object's type is not known here: AnyObject's release frees it all the same.
            if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
        }
        if status != CAIRO_STATUS_SUCCESS { Unmanaged<Object>.fromOpaque(box).release() }
        return object
    }
}
