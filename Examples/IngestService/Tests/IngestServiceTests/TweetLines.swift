import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Tweet JSON Lines made on the fly (nothing stored): record `i` has id `firstID + i`; a seeded
/// fraction of lines is corrupted in one of three ways a decoder must report, as `scripts/gen-jsonl`
/// does: cut short, a misspelled literal, or `user` turned into a number.
struct TweetLines: Sendable {
    enum Corruption: CaseIterable, Sendable {
        case truncate, token, type

        /// The `MappingError.Kind` the service reports for it.
        var kind: String {
            switch self {
            case .truncate, .token: "syntax"
            case .type: "typeMismatch"
            }
        }
    }

    let firstID: Int64
    let corruptEvery: Int
    let seed: UInt64

    /// - Parameter corruptEvery: on average one line in this many is corrupted (0: none).
    init(firstID: Int64 = 1_000_000, corruptEvery: Int = 1000, seed: UInt64 = 42) {
        self.firstID = firstID
        self.corruptEvery = corruptEvery
        self.seed = seed
    }

    /// Line `index` (without its newline) and how it was corrupted, if it was.
    func line(_ index: Int) -> (text: String, corruption: Corruption?) {
        var rng = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9)
        let text = Self.tweet(id: firstID + Int64(index), index: index)
        guard corruptEvery > 0, rng.next() % UInt64(corruptEvery) == 0 else { return (text, nil) }
        let corruption = Corruption.allCases[Int(rng.next() % 3)]
        switch corruption {
        case .truncate:
            let utf8 = Array(text.utf8)
            let cut = 1 + Int(rng.next() % UInt64(utf8.count - 2))
            return (String(decoding: utf8[..<cut], as: UTF8.self), corruption)
        case .token:
            return (text.replacingFirst(#""truncated":false"#, with: #""truncated":fals"#), corruption)
        case .type:
            return (text.replacingFirst(#""user":{"#, with: #""user":7,"unused":{"#), corruption)
        }
    }

    static func tweet(id: Int64, index: Int) -> String {
        let user = 5000 + index % 977
        let verified = index % 7 == 0
        return #"{"created_at":"Sun Aug 31 00:29:15 +0000 2014","id":\#(id),"id_str":"\#(id)","#
            + #""text":"@aym0566x \n\n名前:前田あゆみ\n第一印象:なんか怖っ！ #tag\#(index % 50) \"quoted\"","#
            + #""source":"<a href=\"http://twitter.com/download/iphone\" rel=\"nofollow\">Twitter for iPhone</a>","#
            + #""truncated":false,"in_reply_to_status_id":null,"#
            + #""user":{"id":\#(user),"id_str":"\#(user)","name":"User \#(user)","screen_name":"user\#(user)","#
            + #""location":"地球","description":"bio of user \#(user) with some words to make it longer","#
            + #""followers_count":\#(index % 5000),"friends_count":123,"verified":\#(verified),"#
            + #""profile_image_url":"http://pbs.twimg.com/profile_images/\#(user)/normal.jpeg"},"#
            + #""geo":null,"coordinates":null,"place":null,"retweet_count":\#(index % 100),"#
            + #""favorite_count":\#(index % 30),"entities":{"hashtags":[{"text":"tag\#(index % 50)","indices":[30,36]}],"#
            + #""symbols":[],"urls":[{"url":"http://t.co/abc","expanded_url":"http://example.com/\#(index)","#
            + #""display_url":"example.com","indices":[40,62]}],"user_mentions":[{"screen_name":"aym0566x","#
            + #""id":866260188,"indices":[0,9]}]},"favorited":false,"retweeted":false,"lang":"ja"}"#
    }
}

/// What a body of tweet lines holds, for checking the service's answer.
struct ExpectedRecords {
    var lines = 0
    var bytes = 0
    /// Ids of the good records, in order.
    var acceptedIDs: [Int64] = []
    /// The corrupted records: index and corruption.
    var rejected: [(index: Int, corruption: TweetLines.Corruption)] = []
    /// The corrupted lines, each followed by a newline: what the dead-letter file must hold.
    var deadLetterBytes: [UInt8] = []

    mutating func add(index: Int, id: Int64, text: String, corruption: TweetLines.Corruption?) {
        lines += 1
        bytes += text.utf8.count + 1
        if let corruption {
            rejected.append((index, corruption))
            deadLetterBytes += text.utf8
            deadLetterBytes.append(UInt8(ascii: "\n"))
        } else {
            acceptedIDs.append(id)
        }
    }
}

extension TweetLines {
    /// The first `count` lines as one buffer, and what they hold.
    func body(lines count: Int) -> (ByteBuffer, ExpectedRecords) {
        var buffer = ByteBuffer()
        var expected = ExpectedRecords()
        for index in 0..<count {
            let (text, corruption) = line(index)
            buffer.writeString(text)
            buffer.writeInteger(UInt8(ascii: "\n"))
            expected.add(index: index, id: firstID + Int64(index), text: text, corruption: corruption)
        }
        return (buffer, expected)
    }

    /// An upload of at least `bytes` bytes made while it is sent, in chunks of about `chunkSize`; what
    /// it held is in `expected` once the sequence has ended.
    func stream(bytes: Int, chunkSize: Int = 64 << 10, expected: ExpectedRecordsBox) -> Chunks {
        Chunks(lines: self, bytes: bytes, chunkSize: chunkSize, expected: expected)
    }

    struct Chunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let lines: TweetLines
        let bytes: Int
        let chunkSize: Int
        let expected: ExpectedRecordsBox

        struct AsyncIterator: AsyncIteratorProtocol {
            let chunks: Chunks
            var index = 0
            var sent = 0

            mutating func next() async throws -> ByteBuffer? {
                guard sent < chunks.bytes else { return nil }
                var buffer = ByteBuffer()
                buffer.reserveCapacity(chunks.chunkSize + 4096)
                var records = ExpectedRecords()
                while buffer.readableBytes < chunks.chunkSize, sent + buffer.readableBytes < chunks.bytes {
                    let (text, corruption) = chunks.lines.line(index)
                    buffer.writeString(text)
                    buffer.writeInteger(UInt8(ascii: "\n"))
                    records.add(index: index, id: chunks.lines.firstID + Int64(index), text: text, corruption: corruption)
                    index += 1
                }
                sent += buffer.readableBytes
                chunks.expected.append(records)
                return buffer
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: self) }
    }
}

/// ``ExpectedRecords`` filled in by a stream while it is sent (from the HTTP client's task).
final class ExpectedRecordsBox: Sendable {
    private let state = NIOLockedValueBox(ExpectedRecords())

    func append(_ part: ExpectedRecords) {
        state.withLockedValue { whole in
            whole.lines += part.lines
            whole.bytes += part.bytes
            whole.acceptedIDs += part.acceptedIDs
            whole.rejected += part.rejected.map { ($0.index, $0.corruption) }
            whole.deadLetterBytes += part.deadLetterBytes
        }
    }

    var value: ExpectedRecords { state.withLockedValue { $0 } }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
