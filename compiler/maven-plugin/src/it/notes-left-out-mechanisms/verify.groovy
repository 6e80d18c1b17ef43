// Every mechanism the jvm backend can use for a kernel with long state is compiled; tiny-lock is left out with one note.
def pkg = 'com/example/kernels/aot'
def classes = new File(basedir, "target/classes/$pkg")
def expected = ['AcquireRelease', 'AtomicSpinLock', 'SharedSpinLock', 'Blocking'].collect { 'LongTotalLockDataflow' + it }

assert classes.isDirectory() : "no generated classes in $classes"
def generated = classes.list().collect { it - '.class' }
expected.each { prefix -> assert generated.any { it.startsWith(prefix) } : "no class $prefix* among $generated" }
assert !generated.any { it.contains('TinyLock') } : "tiny-lock cannot hold long state, yet: $generated"

def log = new File(basedir, 'build.log').text
def note = "[INFO] finegrain: note: kernel 'long-total' under lock-dataflow: left out tiny-lock (tiny-lock packs the ready" +
        " bit beside a 32-bit int value, and state field 'total' is long), as the jvm backend cannot use it for this" +
        " kernel; compiled acquire-release, atomic-spin-lock, shared-spin-lock, blocking, lock-box, spsc-ring"
assert log.contains(note) : "the note is missing from build.log"
assert log.count('finegrain: note:') == 1 : "one note per kernel"
return true
