// What docs/your-project.md promises for this project: the plugin's classes exist and the project's own test used
// them; the comparison verified every row of its own kernel; one run on the jvm backend verified.
def aot = new File(basedir, 'target/classes/com/example/finegrain')
assert new File(aot, 'EditTracebackLockDataflowAcquireReleasePerThreadShared.class').isFile() : "no AOT classes in $aot"
assert new File(aot, 'PrefixHashWavefront.class').isFile()
assert new File(basedir, 'target/generated-sources/finegrain/com/example/finegrain/SkewedStencilDataParallel16x16.java').isFile()

def report = new File(basedir, 'target/surefire-reports/TEST-com.example.kernels.AlignTest.xml')
assert report.isFile() : 'the project test that runs the compiled classes did not run'
assert report.text.contains('tests="2"') && report.text.contains('failures="0"') && report.text.contains('errors="0"')

def log = new File(basedir, 'build.log').text
def rows = log.readLines().findAll { it.startsWith('edit-traceback  512x512') }
assert rows.size() >= 8 : "compare printed ${rows.size()} rows of edit-traceback:\n$log"
assert rows.every { it.contains(' verified ') } : rows.join('\n')
assert rows.any { it.contains('lock-dataflow') && it.contains(' jvm ') && it.contains('tiny-lock') }
assert !log.contains('NOT VERIFIED')
assert log.readLines().any { it.startsWith('prefix-hash  4096') && it.contains(' jvm ') && it.contains(' verified ') }

// A project on the JVM backend depends on finegrain-core alone: no Truffle, GPU model, CLI or chart library.
def tree = new File(basedir, 'target/dependency-tree.txt')
assert tree.isFile() : 'dependency:tree wrote nothing'
assert tree.text.contains('dev.finegrain:finegrain-core:jar') : tree.text
['org.graalvm', 'dev.finegrain:finegrain-runtime-gpu', 'dev.finegrain:finegrain-gpu', 'dev.finegrain:finegrain-tools',
 'info.picocli', 'org.knowm.xchart'].each { assert !tree.text.contains(it) : "the project pulls in $it:\n${tree.text}" }
return true
