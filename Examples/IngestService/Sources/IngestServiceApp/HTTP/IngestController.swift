import Crypto
import Foundation
import Hummingbird
import Logging
import ModelMapper
import NIOCore
import NIOHTTP1

/// The routes: `POST /events` (a JSON Lines stream), `POST /event` (one document), `GET /health` and
/// `GET /ready` (probes), `GET /metrics` (Prometheus text), `GET /metrics/summary` (the counters as JSON) and
/// `GET /rejected` (the calling client's rejected records).
struct IngestController: Sendable {
    let configuration: IngestConfiguration
    let store: any EventStore
    let keys: APIKeys?
    let metrics: IngestMetrics
    let readiness: Readiness
    let rateLimiter: RateLimiter?
    let uploadSlots: UploadSlots
    let uploadLog: UploadLog?
    let budget: MemoryBudget
    let drain: UploadDrain

    init(
        configuration: IngestConfiguration, store: any EventStore, keys: APIKeys?, metrics: IngestMetrics,
        readiness: Readiness, budget: MemoryBudget? = nil, uploadLog: Logger? = nil, drain: UploadDrain = UploadDrain()
    ) {
        self.drain = drain
        self.budget = budget ?? MemoryBudget(limit: configuration.memoryBudget)
        self.uploadLog = uploadLog.map { UploadLog(logger: $0, clock: configuration.rateLimitClock) }
        self.configuration = configuration
        self.store = store
        self.keys = keys
        self.metrics = metrics
        self.readiness = readiness
        rateLimiter = configuration.rateLimit.map { RateLimiter(rate: $0, clock: configuration.rateLimitClock) }
        uploadSlots = UploadSlots(limit: configuration.maxUploadsPerClient)
    }

    func addRoutes(to router: Router<some RequestContext>) {
        router.post("events") { request, context in
            try await self.logged("/events", context: context) { try await self.postEvents(request, context: context, outcome: $0) }
        }
        router.post("event") { request, context in
            try await self.logged("/event", context: context) { try await self.postEvent(request, context: context, uploadOutcome: $0) }
        }
        // The process runs and serves HTTP: nothing else is asked (a liveness probe must not fail because
        // the database is away, or the orchestrator restarts replicas that could not help it).
        router.get("health") { _, _ in try Response.json(ProbeAnswer(status: "ok")) }
        router.get("ready") { _, _ in
            let state = self.readiness.state
            guard state == .ready else { throw APIError.notReady(state) }
            return try Response.json(ProbeAnswer(status: "ready"))
        }
        // The counters name every client and its volumes: only with the operator's --metrics-key.
        router.get("metrics") { request, _ in
            try self.authorizeMetrics(request)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: self.metrics.prometheusText())))
        }
        router.get("metrics/summary") { request, _ in
            try self.authorizeMetrics(request)
            return try Response.json(self.metrics.snapshot())
        }
        router.get("rejected") { request, context in try await self.listRejected(request, context: context) }
    }

    /// `GET /rejected?limit=N&after=ID`: the calling client's own rejected records (the same key as a POST;
    /// under `--allow-anonymous` a request without one is the anonymous client's), those with an id above
    /// `after` (default 0), in id order, at most `limit` (default 100, 1…1000), as JSON Lines, each `raw` at
    /// most `--rejected-raw-bytes`. A bad parameter is 400 `invalidQuery`; past the client's `--rate-limit`
    /// 429; when the memory budget cannot hold a page, 503 `overloaded`; a store that does not answer, 503.
    /// The answer streams: rows are read ``IngestConfiguration/listingPageRows`` at a time and written one
    /// by one, so it holds one page whatever `limit` asks.
    func listRejected(_ request: Request, context: some RequestContext) async throws -> Response {
        let client = try await authenticate(request)
        let query = request.uri.queryParameters
        var limit = 100
        if let text = query["limit"] {
            guard let value = Int(String(text)), (1...1000).contains(value) else {
                throw APIError.invalidQuery("limit must be a whole number from 1 to 1000")
            }
            limit = value
        }
        var after: Int64 = 0
        if let text = query["after"] {
            guard let value = Int64(String(text)), value >= 0 else {
                throw APIError.invalidQuery("after must be the id of a listed record (a whole number, 0 or more)")
            }
            after = value
        }
        if let rateLimiter, let wait = rateLimiter.take(for: client) {
            throw APIError.tooManyRequests("rateLimited", retryAfter: wait)
        }
        let reservation = try reserve(configuration.listingReservation)
        let store = self.store
        let pageRows = IngestConfiguration.listingPageRows
        let maxRawBytes = configuration.rejectedRawBytes
        let page: @Sendable (_ after: Int64, _ rows: Int) async throws -> [ListedRejection] = { after, rows in
            try await store.rejections(client: client, after: after, limit: min(rows, pageRows), maxRawBytes: maxRawBytes)
        }
        // The first page before the answer starts, so a store that does not answer is still a 503.
        let first: [ListedRejection]
        do { first = try await page(after, limit) } catch {
            reservation.release()
            throw APIError.storeFailed(error)
        }
        let logger = context.logger
        let rows = limit
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: ResponseBody { writer in
                defer { reservation.release() }
                var listed = first
                var left = rows
                while !listed.isEmpty {
                    for record in listed {
                        var line = ByteBuffer(bytes: try RejectedLine(record).jsonData())
                        line.writeInteger(UInt8(ascii: "\n"))
                        try await writer.write(line)
                    }
                    left -= listed.count
                    guard left > 0, listed.count == pageRows, let last = listed.last?.id else { break }
                    do { listed = try await page(last, left) } catch {
                        // The answer has begun: it can only be cut short (the client sees no final chunk).
                        logger.error("GET /rejected: the store failed mid-answer: \(String(reflecting: error))")
                        throw error
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// Reserves `bytes` of the process-wide memory budget for a request, or refuses it (503 `overloaded`).
    func reserve(_ bytes: Int) throws -> MemoryBudget.Reservation {
        guard let reservation = budget.reserve(bytes) else {
            metrics.requestRefused()
            throw APIError.overloaded
        }
        return reservation
    }

    /// Decodes the body while it streams in; 200 with an ``IngestSummary`` (413 with the summary so far
    /// when a body or line limit stops the reading).
    func postEvents(_ request: Request, context: some RequestContext, outcome: UploadOutcome = UploadOutcome()) async throws
        -> Response
    {
        let client = try await authenticate(request)
        outcome.client = client
        let contentType = request.headers[.contentType]
        guard let format = AcceptedContent.streamFormat(contentType: contentType) else {
            metrics.requestRefused()
            throw APIError.unsupportedMediaType
        }
        guard let encoding = ContentEncoding(header: request.headers[.contentEncoding]) else {
            metrics.requestRefused()
            throw APIError.unsupportedMediaType
        }
        // By Content-Length: for a gzip body, its compressed length (held to the same limit).
        if let limit = configuration.maxEventsBodySize, let length = request.contentLength, length > limit {
            metrics.requestRefused()
            throw APIError.contentTooLarge
        }
        try admit(client)
        defer { uploadSlots.release(client) }
        let reservation = try reserve(configuration.uploadReservation)
        defer { reservation.release() }
        var ingestor = StreamIngestor(configuration: configuration, store: store, metrics: metrics)
        if let keys, let key = Self.bearer(request) {
            ingestor.isAuthorized = { await keys.client(forKey: key) == client }
        }
        let body = CuttableBody(base: request.body, drain: drain)
        metrics.streamStarted()
        let start = ContinuousClock.now
        do {
            let uploadID = Self.uploadID()
            let summary: IngestSummary
            switch encoding {
            case .identity:
                summary = try await ingestor.ingest(body, format: format, uploadID: uploadID, client: client)
            case .gzip:
                // The limits apply to the inflated bytes (and the compressed ones are held to the body limit too).
                summary = try await ingestor.ingest(
                    GzipBody(
                        base: body, maxCompressedBytes: configuration.maxEventsBodySize,
                        maxRatio: configuration.maxInflationRatio), format: format,
                    uploadID: uploadID, client: client)
            }
            metrics.streamEnded(after: ContinuousClock.now - start, failed: false)
            outcome.summary = summary
            if summary.rejected > 0 { await pruneRejections(of: client, logger: context.logger) }
            guard summary.stoppedEarly != nil else { return try Response.json(summary) }
            var stopped = summary
            stopped.error = summary.error ?? "contentTooLarge"
            stopped.requestId = context.id
            outcome.summary = stopped
            switch stopped.error {
            case "tooManyRejected": return try Response.json(stopped, status: .unprocessableContent)
            case "keyRevoked":
                var response = try Response.json(stopped, status: .unauthorized)
                response.headers[.wwwAuthenticate] = "Bearer"
                return response
            case "shuttingDown":
                var response = try Response.json(stopped, status: .serviceUnavailable)
                response.headers[.retryAfter] = "1"
                response.headers[.connection] = "close"
                return response
            default: return try Response.json(stopped, status: .contentTooLarge)
            }
        } catch {
            metrics.streamEnded(after: ContinuousClock.now - start, failed: true)
            context.logger.warning("POST /events failed: \(error)")
            throw error
        }
    }

    /// `--rejected-keep-per-client`: deletes the client's rejected records but its newest ones, after an
    /// upload that added some (the answer waits for it, so a client cannot outrun it). A failure is logged
    /// and the answer goes on: the records it stored are committed.
    func pruneRejections(of client: String, logger: Logger) async {
        do { try await store.pruneRejections(client: client, keep: configuration.rejectedKeptPerClient) } catch {
            logger.error("deleting old rejected records of \(client) failed: \(String(reflecting: error))")
        }
    }

    /// Decodes one document; 200 with its id, 400 with the ``MappingError`` when it cannot be decoded.
    func postEvent(_ request: Request, context: some RequestContext, uploadOutcome: UploadOutcome = UploadOutcome()) async throws
        -> Response
    {
        let client = try await authenticate(request)
        uploadOutcome.client = client
        let contentType = request.headers[.contentType]
        guard AcceptedContent.isSingleDocument(contentType: contentType) else {
            metrics.requestRefused()
            throw APIError.unsupportedMediaType
        }
        guard let encoding = ContentEncoding(header: request.headers[.contentEncoding]) else {
            metrics.requestRefused()
            throw APIError.unsupportedMediaType
        }
        let limit = configuration.maxEventBodySize
        if let length = request.contentLength, length > limit {
            metrics.requestRefused()
            throw APIError.contentTooLarge
        }
        try admit(client)
        defer { uploadSlots.release(client) }
        let reservation = try reserve(configuration.documentReservation)
        defer { reservation.release() }
        let body: ByteBuffer
        do {
            switch encoding {
            case .identity:
                body = try await Self.collect(CuttableBody(base: request.body, drain: drain), upTo: limit)
            case .gzip:
                body = try await Self.collect(
                    GzipBody(
                        base: CuttableBody(base: request.body, drain: drain), maxCompressedBytes: limit,
                        maxRatio: configuration.maxInflationRatio),
                    upTo: limit)
            }
        } catch is DrainCutError {
            throw APIError.shuttingDown
        } catch is NIOTooManyBytesError {
            metrics.requestRefused()
            throw APIError.contentTooLarge
        } catch is BodyLimitError {
            metrics.requestRefused()
            throw APIError.contentTooLarge
        }
        metrics.documentReceived()
        metrics.add(bytes: body.readableBytes)
        if BodyEncoding.isUTF16Or32(Array(body.readableBytesView.prefix(BodyEncoding.headLength))) {
            throw APIError.unsupportedMediaType
        }
        let status: Status
        do {
            status = try body.withUnsafeReadableBytes { try Status(json: $0) }
        } catch let error as MappingError {
            metrics.add(accepted: 0, duplicates: 0, rejected: 1, client: client)
            throw APIError.invalidEvent(error)
        }
        // Refused, as POST /events rejects the same record (a text made of it would hold U+FFFD instead).
        // A key repeated in an object: refused, as by POST /events (one rule whatever reads the stored text).
        let invalid =
            body.containsNUL
            ? "the document holds a NUL byte"
            : !body.isValidUTF8
                ? "the document is not valid UTF-8" : body.firstRepeatedKey.map(StreamIngestor.repeatedKeyReason)
        if let reason = status.unstorableReason ?? invalid {
            metrics.add(accepted: 0, duplicates: 0, rejected: 1, client: client)
            throw APIError.unstorableEvent(reason)
        }
        // The document's text without the blank space around it, exactly as received otherwise.
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        var batch = StoreBatch(uploadID: Self.uploadID(), client: client)
        batch.events = [
            StoredEvent(status: status, raw: ByteBuffer(string: text.trimmingCharacters(in: .whitespacesAndNewlines)))
        ]
        let outcome: StoreOutcome
        do { outcome = try await store.store(batch) } catch { throw APIError.storeFailed(error) }
        metrics.add(
            accepted: outcome.inserted, duplicates: outcome.duplicates, rejected: 0, conflicts: outcome.conflicts.count,
            client: client)
        var accepted = EventAccepted()
        accepted.accepted = outcome.inserted
        accepted.duplicates = outcome.duplicates
        accepted.conflicts = outcome.conflicts.count
        accepted.id = status.id
        var summary = IngestSummary()
        summary.accepted = outcome.inserted
        summary.duplicates = outcome.duplicates
        summary.conflicts = outcome.conflicts.count
        summary.bytes = body.readableBytes
        uploadOutcome.summary = summary
        return try Response.json(accepted)
    }

    /// The key of `Authorization: Bearer KEY`, if the request has one.
    static func bearer(_ request: Request) -> String? {
        guard let authorization = request.headers[.authorization] else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// The client a POST comes from: its API key's (`Authorization: Bearer KEY`), or
    /// ``IngestConfiguration/anonymousClient`` for a request without one under `--allow-anonymous`;
    /// otherwise 401. A key given is always checked, anonymous access or not.
    func authenticate(_ request: Request) async throws -> String {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer", let keys,
                let client = await keys.client(forKey: parts[1].trimmingCharacters(in: .whitespaces))
            {
                return client
            }
        } else if configuration.allowAnonymous {
            return IngestConfiguration.anonymousClient
        }
        metrics.requestRefused()
        throw APIError.unauthorized
    }

    /// `GET /metrics` and `GET /metrics/summary` take `Authorization: Bearer` with the operator's
    /// `--metrics-key` (compared in constant time); without one configured they are always 401.
    func authorizeMetrics(_ request: Request) throws {
        if let key = configuration.metricsKey, let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer",
                APIKey.hashesMatch(
                    Array(SHA256.hash(data: Array(parts[1].trimmingCharacters(in: .whitespaces).utf8))),
                    Array(SHA256.hash(data: Array(key.utf8))))
            {
                return
            }
        }
        metrics.refused(status: 401)
        throw APIError.unauthorized
    }

    /// Runs a POST route and writes its log line (``UploadLog``), whatever its answer; a 4xx answer is
    /// counted by status (`ingest_refused_requests_total`).
    func logged(_ route: String, context: some RequestContext, _ body: (UploadOutcome) async throws -> Response)
        async throws -> Response
    {
        let outcome = UploadOutcome()
        let start = ContinuousClock.now
        func record(_ status: Int, _ error: String?) {
            if (400..<500).contains(status) { metrics.refused(status: status) }
            uploadLog?.record(
                route: route, requestID: context.id, peer: context.peer, outcome: outcome, status: status, error: error,
                duration: ContinuousClock.now - start)
        }
        do {
            let response = try await body(outcome)
            record(response.status.code, response.status.code >= 400 ? outcome.summary?.error : nil)
            return response
        } catch let error as APIError {
            record(error.status.code, error.body.error)
            throw error
        } catch is HTTPParserError {
            // Malformed framing (a bad chunk size, a body cut inside a chunk): the client's fault, 400 as RFC
            // 9112 says, not a 500 with an error in the log. What was committed before it stays committed.
            record(400, "badRequest")
            throw APIError.badFraming
        } catch {
            // The client went away mid-body (or something unforeseen): answered 500 if it is still there.
            record(500, "internal")
            throw error
        }
    }

    /// Lets a POST of `client` in, or refuses it with 429 and `Retry-After`: past `--rate-limit` (the
    /// request still takes no slot), or with `--max-uploads-per-client` of its uploads in progress. A
    /// request let in holds a slot until ``UploadSlots/release(_:)``.
    func admit(_ client: String) throws {
        if let rateLimiter, let wait = rateLimiter.take(for: client) {
            metrics.requestRefused()
            throw APIError.tooManyRequests("rateLimited", retryAfter: wait)
        }
        guard uploadSlots.acquire(client) else {
            metrics.requestRefused()
            throw APIError.tooManyRequests("tooManyUploads", retryAfter: 1)
        }
    }

    /// The whole of a (decompressed) body, at most `limit` bytes.
    static func collect<Body: AsyncSequence>(_ body: Body, upTo limit: Int) async throws -> ByteBuffer
    where Body.Element == ByteBuffer {
        var collected = ByteBuffer()
        for try await var chunk in body {
            guard collected.readableBytes + chunk.readableBytes <= limit else { throw BodyLimitError.bodyTooLarge(limit: limit) }
            collected.writeBuffer(&chunk)
        }
        return collected
    }

    /// A new upload id: a random UUID, lowercased.
    static func uploadID() -> String {
        UUID().uuidString.lowercased()
    }
}

/// `GET /health` and `GET /ready`'s 200 body.
struct ProbeAnswer: JSONMappable {
    var status = ""
}

/// The answer to a good `POST /event`: 1 accepted, or 1 duplicate when its (client, id) was stored with
/// the same bytes, or 1 conflict when it was stored with other bytes (then the stored row is unchanged).
struct EventAccepted: JSONMappable {
    var accepted = 1
    var duplicates = 0
    var conflicts = 0
    var id: Int64 = 0
}

extension Request {
    /// The declared body length, if any.
    var contentLength: Int? {
        headers[.contentLength].flatMap { Int($0) }
    }
}
