import JSON

extension JSONValue {
    /// This value as a scene snapshot file: numbers rounded to 4 decimals (so they read well and show no
    /// floating-point dust), keys in the order given and one top-level member per line (so snapshots diff well),
    /// and a final newline.
    var sceneSnapshotBytes: [UInt8] {
        roundingNumbers(toPlaces: 4).encoded(layout: .linePerMember) + [UInt8(ascii: "\n")]
    }
}
