package recording

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
)

// maxRecord bounds one record: a keyframe of 256 tanks is about 15 KB, a tick of 256
// players' inputs a few KB more, and the largest tick the server can write, 256 accepted
// lag-compensated shots each naming 255 views, about 1.4 MB. A client recording's record
// has the same bound.
const maxRecord = 4 << 20

// Reader reads a recording, one record at a time. Every error names the byte offset of
// the record it could not read and what was expected there.
type Reader struct {
	r      *bufio.Reader
	off    int64
	Header *tankv1.RecordingHeader
}

// clientRecordingMagic opens a client recording (docs/RECORDINGS.md): a file that has it is
// told apart from a damaged server recording.
const clientRecordingMagic = "tanknet client recording"

// NewReader reads and checks the header of the recording in r.
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{r: bufio.NewReader(r)}
	if head, _ := rd.r.Peek(64); bytes.Contains(head, []byte(clientRecordingMagic)) {
		return nil, errors.New("recording: this is a client recording (tankclient -record, tanksim -record): play it with tankclient -replay; tankreplay reads server recordings (tankserver -record)")
	}
	m, err := rd.Next()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("recording: empty file, want a header record first")
	}
	var pathErr *fs.PathError
	if err != nil && !errors.As(err, &pathErr) { // the first bytes do not even read as a record
		return nil, fmt.Errorf("%w (not a tanknet recording, or one cut short in its header)", err)
	}
	if err != nil { // the file itself could not be read (a folder, say): that says it all
		return nil, err
	}
	h := m.GetHeader()
	switch {
	case h == nil || h.GetMagic() != Magic:
		return nil, fmt.Errorf("recording: at byte 0: not a tanknet recording (want a header with magic %q)", Magic)
	case h.GetFormatVersion() == 0:
		return nil, errors.New("recording: at byte 0: header has no format version")
	case h.GetFormatVersion() > FormatVersion:
		return nil, fmt.Errorf("recording: format version %d is newer than this tanknet reads (%d): use a newer tankreplay", h.GetFormatVersion(), FormatVersion)
	case h.GetArena() == nil:
		return nil, errors.New("recording: header has no arena")
	}
	rd.Header = h
	return rd, nil
}

// Offset is the byte offset of the next record.
func (rd *Reader) Offset() int64 { return rd.off }

// Next returns the next record, or io.EOF after the last whole one.
func (rd *Reader) Next() (*tankv1.Record, error) {
	at := rd.off
	n, err := binary.ReadUvarint(byteCounter{rd})
	if errors.Is(err, io.EOF) && rd.off == at {
		return nil, io.EOF
	}
	if err != nil {
		return nil, fmt.Errorf("recording: at byte %d: truncated or bad length prefix (want a varint): %w", at, noEOF(err))
	}
	if n == 0 || n > maxRecord {
		return nil, fmt.Errorf("recording: at byte %d: record length %d, want 1 to %d", at, n, maxRecord)
	}
	buf := make([]byte, n)
	got, err := io.ReadFull(rd.r, buf)
	rd.off += int64(got)
	if err != nil {
		return nil, fmt.Errorf("recording: at byte %d: truncated record: want %d bytes, file has %d", at, n, got)
	}
	m := &tankv1.Record{}
	if err := proto.Unmarshal(buf, m); err != nil {
		return nil, fmt.Errorf("recording: at byte %d: record does not decode (want a tank.v1.Record): %v", at, err)
	}
	if m.GetKind() == nil {
		return nil, fmt.Errorf("recording: at byte %d: record of no kind this version knows (want header, tick or keyframe)", at)
	}
	return m, nil
}

// byteCounter reads single bytes for the length prefix, counting them.
type byteCounter struct{ rd *Reader }

func (b byteCounter) ReadByte() (byte, error) {
	c, err := b.rd.r.ReadByte()
	if err == nil {
		b.rd.off++
	}
	return c, err
}

func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
