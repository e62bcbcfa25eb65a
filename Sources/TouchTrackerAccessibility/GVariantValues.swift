internal import CGio

/// GVariant values built and read from Swift: GLib's variadic `g_variant_new` cannot be called from Swift, so
/// each value is made from its typed constructor. A value made here is floating: handing it to GDBus consumes it.
enum GVariantValues {
    static func string(_ text: String) -> OpaquePointer { g_variant_new_string(text) }
    static func objectPath(_ path: String) -> OpaquePointer { g_variant_new_object_path(path) }
    static func int32(_ value: Int32) -> OpaquePointer { g_variant_new_int32(value) }
    static func int16(_ value: Int16) -> OpaquePointer { g_variant_new_int16(value) }
    static func uint32(_ value: UInt32) -> OpaquePointer { g_variant_new_uint32(value) }
    static func bool(_ value: Bool) -> OpaquePointer { g_variant_new_boolean(value ? 1 : 0) }
    static func double(_ value: Double) -> OpaquePointer { g_variant_new_double(value) }
    static func variant(_ value: OpaquePointer) -> OpaquePointer { g_variant_new_variant(value) }

    static func tuple(_ items: [OpaquePointer]) -> OpaquePointer {
        let children: [OpaquePointer?] = items
        return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// An array of values of `elementType` (a GVariant type string such as "(so)"), empty or not.
    static func array(of elementType: String, _ items: [OpaquePointer]) -> OpaquePointer {
        let type = g_variant_type_new(elementType)
        defer { g_variant_type_free(type) }
        let children: [OpaquePointer?] = items
        return children.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
    }

    static func dictEntry(_ key: OpaquePointer, _ value: OpaquePointer) -> OpaquePointer {
        g_variant_new_dict_entry(key, value)
    }

    /// An object reference as AT-SPI sends one: the bus name and the object's path, `(so)`.
    static func reference(busName: String, path: String) -> OpaquePointer {
        tuple([string(busName), objectPath(path)])
    }

    /// The `index`th child of the tuple `parameters` as a 32-bit integer (signed or not), nil when it is not one.
    static func integer(_ parameters: OpaquePointer?, at index: Int) -> Int64? {
        guard let parameters, Int(g_variant_n_children(parameters)) > index,
            let child = g_variant_get_child_value(parameters, gsize(index))
        else { return nil }
        defer { g_variant_unref(child) }
        let type = String(cString: g_variant_get_type_string(child))
        switch type {
        case "i": return Int64(g_variant_get_int32(child))
        case "u": return Int64(g_variant_get_uint32(child))
        default: return nil
        }
    }

    /// The `index`th child of `value`, a string or object path, nil when it is not one.
    static func text(_ value: OpaquePointer?, at index: Int) -> String? {
        guard let value, Int(g_variant_n_children(value)) > index,
            let child = g_variant_get_child_value(value, gsize(index))
        else { return nil }
        defer { g_variant_unref(child) }
        guard let text = g_variant_get_string(child, nil) else { return nil }
        return String(cString: text)
    }
}
