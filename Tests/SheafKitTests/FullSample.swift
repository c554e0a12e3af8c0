// A value of any Decodable type with every field present: a decoder that answers every key
// (so every optional is there), lists of one element, "x" for text, 1 for numbers, true for
// flags. Encoding it shows every field a type can write, under the name it writes it.
import Foundation

enum FullSample {
    static func make<T: Decodable>(_ type: T.Type) throws -> T { try T(from: Probe(codingPath: [])) }

    /// A primitive's sample, nil for a type that decodes itself from containers.
    static func primitive<T>(_ type: T.Type) -> T? {
        switch type {
        case is String.Type: return "x" as? T
        case is Bool.Type: return true as? T
        case is Double.Type: return 1.0 as? T
        case is Float.Type: return Float(1) as? T
        case is Int.Type: return 1 as? T
        case is Int8.Type: return Int8(1) as? T
        case is Int16.Type: return Int16(1) as? T
        case is Int32.Type: return Int32(1) as? T
        case is Int64.Type: return Int64(1) as? T
        case is UInt.Type: return UInt(1) as? T
        case is UInt8.Type: return UInt8(1) as? T
        case is UInt16.Type: return UInt16(1) as? T
        case is UInt32.Type: return UInt32(1) as? T
        case is UInt64.Type: return UInt64(1) as? T
        default: return nil
        }
    }

    static func value<T: Decodable>(_ type: T.Type, at path: [any CodingKey]) throws -> T {
        if let p = primitive(type) { return p }
        return try T(from: Probe(codingPath: path))
    }

    struct Probe: Decoder {
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(codingPath: codingPath))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed(codingPath: codingPath) }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(codingPath: codingPath) }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let codingPath: [any CodingKey]
        /// None: a dictionary keyed by strings comes out empty (its own key is still there).
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, at: codingPath + [key]) }
        func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
            KeyedDecodingContainer(Keyed<N>(codingPath: codingPath + [key]))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { Unkeyed(codingPath: codingPath + [key]) }
        func superDecoder() throws -> any Decoder { Probe(codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { Probe(codingPath: codingPath + [key]) }
    }

    /// A list of one element.
    struct Unkeyed: UnkeyedDecodingContainer {
        let codingPath: [any CodingKey]
        var count: Int? { 1 }
        var currentIndex = 0
        var isAtEnd: Bool { currentIndex >= 1 }
        init(codingPath: [any CodingKey]) { self.codingPath = codingPath }
        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex += 1
            return try value(type, at: codingPath)
        }
        mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> {
            currentIndex += 1
            return KeyedDecodingContainer(Keyed<N>(codingPath: codingPath))
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            currentIndex += 1
            return Unkeyed(codingPath: codingPath)
        }
        mutating func superDecoder() throws -> any Decoder { Probe(codingPath: codingPath) }
    }

    struct Single: SingleValueDecodingContainer {
        let codingPath: [any CodingKey]
        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type, at: codingPath) }
    }
}
