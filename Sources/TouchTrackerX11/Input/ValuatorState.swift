import CX11

extension XIValuatorState {
    /// The value of valuator `number`, if the event carries it. Values are packed: the index into `values` is the
    /// number of set mask bits below `number`.
    func value(ofValuator number: Int32) -> Double? {
        guard number >= 0, Int(number) < Int(mask_len) * 8, let mask, let values else { return nil }
        func isSet(_ bit: Int) -> Bool { mask[bit / 8] & (1 << UInt8(bit % 8)) != 0 }
        guard isSet(Int(number)) else { return nil }
        let index = (0..<Int(number)).reduce(0) { count, bit in isSet(bit) ? count + 1 : count }
        return values[index]
    }
}
