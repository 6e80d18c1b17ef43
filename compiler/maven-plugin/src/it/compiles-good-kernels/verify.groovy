// The generated classes and sources exist, hold the kernel's code, and are exactly the requested combinations.
def pkg = 'com/example/kernels/aot'
def classes = new File(basedir, "target/classes/$pkg")
def sources = new File(basedir, "target/generated-sources/finegrain/$pkg")
def expected = ['GridSumWavefront', 'GridSumLockDataflowAcquireReleasePerThreadShared']

assert classes.isDirectory() : "no generated classes in $classes"
assert classes.list().sort() == expected.collect { it + '.class' }.sort() : "generated classes: ${classes.list()}"
expected.each { name ->
    def classFile = new File(classes, name + '.class')
    int magic = new DataInputStream(new FileInputStream(classFile)).withCloseable { it.readInt() }
    assert magic == (int) 0xCAFEBABE : "$classFile is not a class file"

    def source = new File(sources, name + '.java')
    assert source.isFile() : "missing source $source"
    def text = source.text
    assert text.contains('package com.example.kernels.aot;')
    assert text.contains("public final class $name implements TeamTask")
    assert text.contains('import dev.finegrain.runtime.jvm.TeamTask;')
    assert text.contains('of kernel grid-sum') : "the class comment does not name the kernel in $source"
    // the kernel's expression, as the comment of scalar code states it (a wavefront in lanes computes it in vectors)
    if (name.contains('LockDataflow')) {
        assert text.contains('// actor cell: total[i, j] = (total[i-1, j] + total[i, j-1]) + weight[i, j]') : "kernel expression missing in $source"
    }
}

// the user's own classes are untouched and the generated ones are packaged
assert new File(basedir, 'target/classes/com/example/kernels/GridLibrary.class').isFile()
def jar = new java.util.jar.JarFile(new File(basedir, 'target/compiles-good-kernels-1.0.jar'))
try {
    expected.each { assert jar.getEntry("$pkg/${it}.class") != null : "$it not in the jar" }
} finally {
    jar.close()
}

def log = new File(basedir, 'build.log').text
expected.each { assert log.contains("Generated com.example.kernels.aot.$it -> target/classes/$pkg/${it}.class") }
assert log.contains('finegrain: compiled kernels grid-sum into 2 classes')
return true
