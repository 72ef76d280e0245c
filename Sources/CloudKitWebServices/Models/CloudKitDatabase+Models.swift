import RecordCodable

// Models in, models out: the records calls through RecordEncoder and RecordDecoder.

extension CloudKitDatabase {
    /// Saves models as records (`records/modify`), uploading their asset files first.
    ///
    /// Each model is encoded with `encoder`, and saved with an `update` when its record carries
    /// a change tag (it was decoded from the server's record), a `create` otherwise. Assets that
    /// are local files (a `RecordAssetValue`, a file URL) are uploaded first, as
    /// ``saveRecords(_:zoneID:atomic:)`` does; a request of more than 200 models is split as
    /// ``modifyRecords(_:)`` says.
    ///
    /// ```swift
    /// let answer = try await database.save([note1, note2])
    /// for entry in answer.records where entry.error != nil { … }
    /// ```
    ///
    /// - Parameters:
    ///   - models: The models to save.
    ///   - encoder: The encoder that turns each model into a record.
    ///   - zoneID: The zone of the records, or `nil` for the encoder's, else the default zone.
    ///   - atomic: Whether the whole request fails when one operation fails.
    /// - Returns: One entry for each model, in order: the saved record, or why it was not saved.
    /// - Throws: Any error `encoder` throws for a model; ``CloudKitError`` for a failed upload or
    ///   save.
    public func save<Model: Encodable>(
        _ models: some Sequence<Model>, encoder: RecordEncoder = RecordEncoder(), zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil
    ) async throws -> RecordsModifyResponse {
        try await modifyUploadingAssets(
            RecordsModifyRequest(saving: models, encoder: encoder, zoneID: zoneID, atomic: atomic))
    }

    /// Fetches the record of one name (`records/lookup`) and decodes it as a model.
    ///
    /// - Parameters:
    ///   - type: The model's type.
    ///   - recordName: The record's name.
    ///   - zoneID: The record's zone, or `nil` for the default zone.
    ///   - decoder: The decoder that turns the record into a model.
    /// - Returns: The model, or `nil` when the server has no such record (`NOT_FOUND`).
    /// - Throws: The `DecodingError` of a record that does not decode as the model; the
    ///   `UnreadableRecord` of one that cannot be read; the `RecordServerError` of any other
    ///   refusal of the record; ``CloudKitError`` for a failed request.
    public func fetch<Model: Decodable>(
        _ type: Model.Type, recordName: String, zoneID: RecordZoneID? = nil, decoder: RecordDecoder = RecordDecoder()
    ) async throws -> Model? {
        let request = RecordsLookupRequest(records: [.init(recordName: recordName)], zoneID: zoneID)
        guard let entry = try await lookupRecords(request).records.first else { return nil }
        if entry.error?.serverErrorCode == .notFound { return nil }
        return try CloudKitModelResult<Model>(entry, decoder: decoder).get()
    }

    /// The pages of a query (`records/query`), each read as models.
    ///
    /// A record that does not decode as the model is reported in its place
    /// (``CloudKitModelResult/undecodable(_:_:)``), never thrown: the other models of the page
    /// come all the same.
    ///
    /// - Parameters:
    ///   - type: The models' type.
    ///   - request: The query.
    ///   - decoder: The decoder that turns each record into a model.
    public func queryModels<Model: Decodable>(
        _ type: Model.Type, _ request: RecordsQueryRequest, decoder: RecordDecoder = RecordDecoder()
    ) -> CloudKitModelPages<Model> {
        CloudKitModelPages(pages: pages(of: request), decoder: decoder)
    }
}

/// The pages of a query read as models: each page's entries, one ``CloudKitModelResult`` each,
/// in order. See ``CloudKitDatabase/queryModels(_:_:decoder:)``.
public struct CloudKitModelPages<Model: Decodable>: AsyncSequence {
    /// A page's models.
    public typealias Element = [CloudKitModelResult<Model>]

    let pages: CloudKitPages<RecordsQueryRequest, RecordsQueryResponse>
    let decoder: RecordDecoder

    /// Fetches the pages in order and reads each as models.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var pages: CloudKitPages<RecordsQueryRequest, RecordsQueryResponse>.AsyncIterator
        let decoder: RecordDecoder

        /// The next page's models, or `nil` after the last page.
        public mutating func next() async throws -> [CloudKitModelResult<Model>]? {
            guard let page = try await pages.next() else { return nil }
            return page.records.map { CloudKitModelResult<Model>($0, decoder: decoder) }
        }
    }

    /// Starts at the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pages: pages.makeAsyncIterator(), decoder: decoder)
    }
}

extension CloudKitModelPages: Sendable {}
