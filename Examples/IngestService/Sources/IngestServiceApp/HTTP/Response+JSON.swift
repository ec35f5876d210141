import Hummingbird
import ModelMapper

extension Response {
    /// A response whose body is `model` encoded by ModelMapper.
    static func json(_ model: some JSONMappable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try model.jsonData()
        var buffer = ByteBuffer()
        buffer.writeBytes(data)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: buffer))
    }
}
