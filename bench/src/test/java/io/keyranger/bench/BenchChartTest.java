package io.keyranger.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class BenchChartTest {
    @Test
    void barsAreProportionalToThroughputAndLabelledWithTheRatioToLinear() throws Exception {
        List<BenchResult> results = List.of(
                new BenchResult("linear", 1000, 10_000, 100, 1, 1, 0, 0.05, true, false),
                new BenchResult("offset", 500, 20_000, 50, 1, 1, 0, 0.05, true, true),
                new BenchResult("adaptive", 1000, 2_500, 400, 1, 1, 3, 0.05, false, false));
        String svg = BenchChart.svg("mixed <50k>", results);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        NodeList rects = doc.getElementsByTagName("rect");
        assertThat(rects.getLength()).isEqualTo(4); // background + 3 bars
        int linear = Integer.parseInt(((Element) rects.item(1)).getAttribute("width"));
        int offset = Integer.parseInt(((Element) rects.item(2)).getAttribute("width"));
        int adaptive = Integer.parseInt(((Element) rects.item(3)).getAttribute("width"));
        assertThat(adaptive).isEqualTo(4 * linear);
        assertThat(offset * 2).isBetween(linear - 1, linear + 1);
        assertThat(((Element) rects.item(3)).getAttribute("fill")).isEqualTo("#d32f2f"); // not verified
        assertThat(svg).contains("mixed &lt;50k&gt;").contains("~50/s  (0.50x linear)").contains("400/s  (4.00x linear)");
    }
}
