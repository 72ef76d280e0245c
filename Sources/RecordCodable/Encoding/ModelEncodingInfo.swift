/// What the encoder keeps about a model type, so that each record of the type starts from what the
/// ones before it taught: the record type, and the layouts of its records (see ``FieldLayout``).
///
/// It never changes once made: what a later record teaches is kept in a new one, so a lookup
/// hands out one shared object, and a record refers to the one it started from.
final class ModelEncodingInfo: Sendable {
    /// The type's record type (see ``ModelTypes``).
    let recordType: String

    /// The layout of the type's records with the default keys.
    let defaultKeysLayout: FieldLayout?

    /// The layout of the type's records with snake-case field names.
    let snakeCaseLayout: FieldLayout?

    private init(recordType: String, defaultKeysLayout: FieldLayout?, snakeCaseLayout: FieldLayout?) {
        self.recordType = recordType
        self.defaultKeysLayout = defaultKeysLayout
        self.snakeCaseLayout = snakeCaseLayout
    }

    /// The layout of the type's records under `strategy`; a custom strategy has none, since its
    /// closure may answer differently from record to record.
    func layout(for strategy: RecordEncoder.KeyEncodingStrategy) -> FieldLayout? {
        switch strategy {
        case .useDefaultKeys: defaultKeysLayout
        case .convertToSnakeCase: snakeCaseLayout
        case .custom: nil
        }
    }

    /// The same information with `layout` for `strategy`.
    private func withLayout(_ layout: FieldLayout, for strategy: RecordEncoder.KeyEncodingStrategy)
        -> ModelEncodingInfo
    {
        switch strategy {
        case .useDefaultKeys:
            ModelEncodingInfo(recordType: recordType, defaultKeysLayout: layout, snakeCaseLayout: snakeCaseLayout)
        case .convertToSnakeCase:
            ModelEncodingInfo(recordType: recordType, defaultKeysLayout: defaultKeysLayout, snakeCaseLayout: layout)
        case .custom:
            self
        }
    }

    // MARK: The cache

    private static let cache = LockedDictionary<ObjectIdentifier, ModelEncodingInfo>()

    /// The information for `T`, made on first use.
    static func of<T>(_ type: T.Type) -> ModelEncodingInfo {
        if let info = cache[ObjectIdentifier(type)] { return info }
        return made(for: ModelTypes.info(of: type))
    }

    /// The information for the type that `typeInfo` describes, made on first use.
    static func of(_ typeInfo: ModelTypeInfo) -> ModelEncodingInfo {
        cache[typeInfo.typeID] ?? made(for: typeInfo)
    }

    private static func made(for typeInfo: ModelTypeInfo) -> ModelEncodingInfo {
        let info = ModelEncodingInfo(recordType: typeInfo.recordType, defaultKeysLayout: nil, snakeCaseLayout: nil)
        cache[typeInfo.typeID] = info
        return info
    }

    /// Keeps the layout that `T`'s next records start from under `strategy`, and returns the
    /// information that holds it.
    static func noteLayout<T>(_ layout: FieldLayout, for strategy: RecordEncoder.KeyEncodingStrategy, of type: T.Type)
        -> ModelEncodingInfo
    {
        let id = ObjectIdentifier(type)
        let known = cache[id] ?? of(type)
        return cache.withValue(id) { info in
            let updated = (info ?? known).withLayout(layout, for: strategy)
            info = updated
            return updated
        }
    }
}

extension ModelTypeInfo {
    /// The layout the encoder keeps for the type's records under `strategy` (see
    /// ``ModelEncodingInfo``).
    func layout(for strategy: RecordEncoder.KeyEncodingStrategy) -> FieldLayout? {
        ModelEncodingInfo.of(self).layout(for: strategy)
    }
}
